package dev.sluice.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.sluice.api.QueueKey;
import org.junit.jupiter.api.Test;

/** Queue ARNs carry their queue's region, account and name, and read back to its key. */
class QueueArnsTest {
  @Test
  void anArnNamesRegionAccountAndName() {
    QueueKey key = new QueueKey("111111111111", "eu-west-1", "orders.fifo");
    assertEquals("arn:aws:sqs:eu-west-1:111111111111:orders.fifo", QueueArns.arnOf(key));
    assertEquals(key, QueueArns.keyOf(QueueArns.arnOf(key)));
  }

  @Test
  void whatIsNotAQueueArnNamesNoQueue() {
    assertNull(QueueArns.keyOf(null));
    assertNull(QueueArns.keyOf("arn:aws:sns:us-east-1:111111111111:topic"));
    assertNull(QueueArns.keyOf("arn:aws-cn:sqs:cn-north-1:111111111111:orders"), "another partition");
    assertNull(QueueArns.keyOf("arn:aws:sqs:us-east-1:111111111111"));
    assertNull(QueueArns.keyOf("arn:aws:sqs::111111111111:orders"));
    assertNull(QueueArns.keyOf("arn:aws:sqs:us-east-1:111111111111:a:b"));
  }
}
