package dev.sluice.client;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.function.BiFunction;

/**
 * The server's refusals as the client's exceptions, in one table: a refused request's reply (its
 * failure code, the HTTP status SQS would use, and the message {@code "<Code>: text"}) or a
 * subscription's {@code {"type": "error", "code": …}} push; and which failures are terminal (the
 * same request would be refused again) rather than retried.
 */
final class ErrorMapping {
  private ErrorMapping() {}

  private static final Map<String, BiFunction<Integer, String, SluiceClientException>> TYPED = Map.ofEntries(
      typed("QueueDoesNotExist", (s, m) -> new QueueDoesNotExistException("QueueDoesNotExist", s, m)),
      typed("NotFound", (s, m) -> new QueueDoesNotExistException("NotFound", s, m)),
      typed("AccessDeniedException", (s, m) -> new AccessDeniedException("AccessDeniedException", s, m)),
      typed("AccessDenied", (s, m) -> new AccessDeniedException("AccessDenied", s, m)),
      typed("AuthorizationError", (s, m) -> new AccessDeniedException("AuthorizationError", s, m)),
      typed("InvalidParameterValueException", (s, m) -> new InvalidParameterException("InvalidParameterValueException", s, m)),
      typed("InvalidParameterValue", (s, m) -> new InvalidParameterException("InvalidParameterValue", s, m)),
      typed("MissingRequiredParameterException", (s, m) -> new InvalidParameterException("MissingRequiredParameterException", s, m)),
      typed("MissingParameter", (s, m) -> new InvalidParameterException("MissingParameter", s, m)),
      typed("InvalidParameter", (s, m) -> new InvalidParameterException("InvalidParameter", s, m)),
      typed("ReceiptHandleIsInvalid", (s, m) -> new ReceiptHandleInvalidException("ReceiptHandleIsInvalid", s, m)),
      typed("OverLimit", (s, m) -> new OverLimitException("OverLimit", s, m)));

  /** Codes worth asking again after a while: the server is stopping, paused, busy or failed. */
  private static final Set<String> RETRYABLE = Set.of("ServiceUnavailable", "RequestThrottled", "ThrottlingException",
      "InternalFailure", "ResourceNotFoundException", "NoHandlers", "Timeout");

  private static Map.Entry<String, BiFunction<Integer, String, SluiceClientException>> typed(String code,
      BiFunction<Integer, String, SluiceClientException> make) {
    return Map.entry(code, make);
  }

  /**
   * A refused request's reply. {@code message} is {@code "<Code>: text"} as the push service writes
   * it; a negative failure code is the event bus's own (no handler, or the server's reply timeout).
   */
  static SluiceClientException fromReply(int failureCode, String failureType, String message) {
    if (failureCode < 0) {
      String code = "NO_HANDLERS".equals(failureType) ? "NoHandlers" : "Timeout";
      return new SluiceClientException(code, 0, message == null ? code : message);
    }
    String text = message == null ? "" : message;
    int colon = text.indexOf(": ");
    String code = colon > 0 && text.substring(0, colon).matches("[A-Za-z][A-Za-z0-9.]*") ? text.substring(0, colon) : "Unknown";
    return fromCode(code, failureCode, colon > 0 && !"Unknown".equals(code) ? text.substring(colon + 2) : text);
  }

  /** A refusal named by its SQS code (a reply's, or a subscription's error push). */
  static SluiceClientException fromCode(String code, int status, String text) {
    var make = TYPED.get(code);
    return make != null ? make.apply(status, text) : new SluiceClientException(code, status, text);
  }

  /**
   * Whether the same request would fail the same way again, so that a subscription ends with it
   * rather than subscribing again after a backoff.
   */
  static boolean isTerminal(Throwable e) {
    if (e instanceof QueueDoesNotExistException || e instanceof UnauthorizedException
        || e instanceof AccessDeniedException || e instanceof InvalidParameterException
        || e instanceof OverLimitException || e instanceof UnsupportedServerException
        || e instanceof IllegalArgumentException) {
      return true;
    }
    if (e instanceof SluiceClientException s) {
      return !RETRYABLE.contains(s.code()) && s.status() > 0 && s.status() < 500;
    }
    return !(e instanceof TimeoutException);
  }

  /**
   * A failed ack, nack or extend, as its caller should see it: an unknown subscription means the
   * server ended it, and gave the message back with it.
   */
  static Throwable forSettle(Throwable e) {
    if (e instanceof SluiceClientException s && "ResourceNotFoundException".equals(s.code())) {
      return new DeliveryLostException("The subscription has ended on the server; the message was given back: "
          + s.getMessage());
    }
    return e;
  }
}
