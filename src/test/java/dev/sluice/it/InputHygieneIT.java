package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.SqsException;

/** Input that is not what it claims to be is refused with an SQS error, never taken silently. */
class InputHygieneIT extends SharedServerIT {

  @Test
  void aGarbageNextTokenIsInvalidParameterValue() {
    String dlq = sqs.createQueue(b -> b.queueName("hygiene-dlq")).queueUrl();
    for (String garbage : new String[] {"garbage", "%%%", "bm90IGEgcXVldWU"}) {
      SqsException e = assertThrows(SqsException.class,
          () -> sqs.listQueues(b -> b.maxResults(1).nextToken(garbage)), garbage);
      assertEquals("InvalidParameterValue", e.awsErrorDetails().errorCode(), garbage);
      assertEquals("Invalid NextToken value.", e.awsErrorDetails().errorMessage());
      e = assertThrows(SqsException.class,
          () -> sqs.listDeadLetterSourceQueues(b -> b.queueUrl(dlq).maxResults(1).nextToken(garbage)), garbage);
      assertEquals("InvalidParameterValue", e.awsErrorDetails().errorCode(), garbage);
    }
  }
}
