package dev.sluice.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ActionPatternTest {
  @ParameterizedTest(name = "{0} covers {1}: {2}")
  @CsvSource({
      "*, SendMessage, true",
      "sqs:*, PurgeQueue, true",
      "SQS:SendMessage, SendMessage, true",
      "sqs:sendmessage, SendMessage, true",
      "sqs:SendMessage, SendMessageBatch, false",
      "sqs:Send*, SendMessage, true",
      "sqs:Send*, ReceiveMessage, false",
      "sqs:*Message, DeleteMessage, true",
      "sqs:*Message, ChangeMessageVisibility, false",
      "sqs:Get*, GetQueueUrl, true",
      "sqs:?urgeQueue, PurgeQueue, true",
      "sqs:SendMessageBatch, SendMessage, false"})
  void coversCaseInsensitivelyWithWildcards(String pattern, String action, boolean expected) {
    assertEquals(expected, ActionPattern.parse(pattern, "Action").matches(action));
  }

  @ParameterizedTest(name = "{0} is refused")
  @ValueSource(strings = {"SendMessage", "sns:Publish", "sqs:", "sqs:SendMesage", "sqs:Send Message", "*:*", "sqs"})
  void somethingThatNamesNoSqsActionIsRefused(String pattern) {
    PolicyException e = assertThrows(PolicyException.class, () -> ActionPattern.parse(pattern, "Statement 1.Action"));
    assertEquals(PolicyException.Kind.INVALID, e.kind());
  }
}
