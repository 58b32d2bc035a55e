package dev.sluice.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** The server's refusals as typed exceptions, and which end a subscription. */
class ErrorMappingTest {
  private static SluiceClientException reply(int status, String message) {
    return ErrorMapping.fromReply(status, "RECIPIENT_FAILURE", message);
  }

  @Test
  void aRefusedRequestIsTypedByItsCode() {
    SluiceClientException e = reply(400, "QueueDoesNotExist: The specified queue does not exist.");
    assertInstanceOf(QueueDoesNotExistException.class, e);
    assertEquals("QueueDoesNotExist", e.code());
    assertEquals(400, e.status());
    assertEquals("The specified queue does not exist.", e.getMessage());
    assertInstanceOf(AccessDeniedException.class, reply(403, "AccessDeniedException: not yours"));
    assertInstanceOf(InvalidParameterException.class, reply(400, "InvalidParameterValueException: Value 0 for prefetch"));
    assertInstanceOf(InvalidParameterException.class, reply(400, "MissingRequiredParameterException: queueUrl"));
    assertInstanceOf(ReceiptHandleInvalidException.class, reply(404, "ReceiptHandleIsInvalid: expired"));
    assertInstanceOf(OverLimitException.class, reply(403, "OverLimit: A connection may hold at most 100 subscriptions."));
  }

  @Test
  void anUnknownCodeKeepsItsNameAndStatus() {
    SluiceClientException e = reply(503, "ServiceUnavailable: The server is stopping.");
    assertSame(SluiceClientException.class, e.getClass());
    assertEquals("ServiceUnavailable", e.code());
    assertEquals(503, e.status());
  }

  @Test
  void aMessageWithoutACodeIsUnknown() {
    SluiceClientException e = reply(500, "something broke: badly");
    assertEquals("Unknown", e.code());
    assertEquals("something broke: badly", e.getMessage());
    assertEquals("Unknown", reply(500, null).code());
  }

  @Test
  void theEventBussOwnFailuresAreRetryable() {
    SluiceClientException none = ErrorMapping.fromReply(-1, "NO_HANDLERS", "No handlers for address sluice.credit");
    assertEquals("NoHandlers", none.code());
    assertFalse(ErrorMapping.isTerminal(none));
    SluiceClientException late = ErrorMapping.fromReply(-1, "TIMEOUT", "Timed out after waiting 30000(ms)");
    assertEquals("Timeout", late.code());
    assertFalse(ErrorMapping.isTerminal(late));
  }

  @Test
  void whatTheSameRequestWouldMeetAgainIsTerminal() {
    assertTrue(ErrorMapping.isTerminal(reply(400, "QueueDoesNotExist: gone")));
    assertTrue(ErrorMapping.isTerminal(reply(403, "AccessDeniedException: no")));
    assertTrue(ErrorMapping.isTerminal(reply(400, "InvalidParameterValueException: no")));
    assertTrue(ErrorMapping.isTerminal(reply(403, "OverLimit: no")));
    assertTrue(ErrorMapping.isTerminal(new UnauthorizedException(401, "no")));
    assertTrue(ErrorMapping.isTerminal(new UnsupportedServerException("old")));
    assertTrue(ErrorMapping.isTerminal(reply(400, "SomethingNew: a refusal we do not know")));
    assertTrue(ErrorMapping.isTerminal(ErrorMapping.fromCode("NotFound", 0, "Topic does not exist")));
  }

  @Test
  void whatMayPassIsRetried() {
    assertFalse(ErrorMapping.isTerminal(reply(503, "ServiceUnavailable: stopping")));
    assertFalse(ErrorMapping.isTerminal(reply(403, "RequestThrottled: slow down")));
    assertFalse(ErrorMapping.isTerminal(reply(500, "InternalFailure: oops")));
    assertFalse(ErrorMapping.isTerminal(reply(404, "ResourceNotFoundException: The subscription does not exist.")));
    assertFalse(ErrorMapping.isTerminal(ErrorMapping.fromCode("ServiceUnavailable", 0, "not serving")));
    assertFalse(ErrorMapping.isTerminal(new ConnectionLostException("cut", null)));
    assertFalse(ErrorMapping.isTerminal(new TimeoutException("late")));
    assertFalse(ErrorMapping.isTerminal(new SluiceClientException("BridgeRefused", 0, "rejected")));
  }

  @Test
  void aSettleOnAnEndedSubscriptionIsALostDelivery() {
    assertInstanceOf(DeliveryLostException.class,
        ErrorMapping.forSettle(reply(404, "ResourceNotFoundException: The subscription has ended.")));
    SluiceClientException expired = reply(404, "ReceiptHandleIsInvalid: expired");
    assertSame(expired, ErrorMapping.forSettle(expired));
  }
}
