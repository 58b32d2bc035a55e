package dev.sluice.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.api.AccountRegion;
import dev.sluice.api.ErrorCode;
import dev.sluice.api.QueueKey;
import dev.sluice.api.SqsException;
import org.junit.jupiter.api.Test;

/** Queue URLs carry the owner and the name; the region is the caller's. */
class QueueUrlsTest {
  static final AccountRegion WEST = new AccountRegion("111111111111", "us-west-2");

  @Test
  void aUrlIsTheBaseTheAccountAndTheName() {
    assertEquals("http://h:9324/111111111111/orders",
        QueueUrls.urlOf("http://h:9324", new QueueKey("111111111111", "us-west-2", "orders")));
  }

  @Test
  void theAccountSegmentNamesTheOwnerAndTheRegionIsTheCallers() {
    assertEquals(new QueueKey("111111111111", "us-west-2", "orders"),
        QueueUrls.keyOf(WEST, "http://localhost:9324/111111111111/orders"));
    assertEquals(new QueueKey("222222222222", "us-west-2", "orders"),
        QueueUrls.keyOf(WEST, "https://sqs.us-west-2.amazonaws.com/222222222222/orders/"),
        "another account's queue, in the caller's region");
    assertEquals(new QueueKey("222222222222", "us-west-2", "orders.fifo"),
        QueueUrls.keyOf(WEST, "http://x/222222222222/orders.fifo?Action=SendMessage"));
  }

  @Test
  void withoutAnAccountTheCallersAccountOwnsTheQueue() {
    assertEquals(WEST.queue("orders"), QueueUrls.keyOf(WEST, "orders"), "a bare name");
    assertEquals(WEST.queue("orders"), QueueUrls.keyOf(WEST, "http://localhost:9324/queue/orders"),
        "a path segment that is not an account id");
  }

  @Test
  void aMissingOrEmptyUrlIsRefused() {
    assertEquals(ErrorCode.MISSING_PARAMETER,
        assertThrows(SqsException.class, () -> QueueUrls.keyOf(WEST, "")).code());
    assertEquals(ErrorCode.QUEUE_DOES_NOT_EXIST,
        assertThrows(SqsException.class, () -> QueueUrls.keyOf(WEST, "/")).code());
  }
}
