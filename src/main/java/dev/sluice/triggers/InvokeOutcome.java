package dev.sluice.triggers;

import dev.sluice.model.JsonText;
import java.util.List;
import java.util.Map;

/**
 * What a target's answer to one batch means (design/triggers.md §2.5): which records are settled,
 * and, when the batch failed, the kind of error, which decides whether the trigger backs off. A
 * {@link Protocol#LAMBDA} target is the Lambda runtime interface emulator's invoke path, which
 * answers a function's error as a 200 (with {@code X-Amz-Function-Error}, a body naming
 * {@code errorType} or {@code errorMessage}, {@code Task timed out after …}, or an empty body when
 * the runtime exited) and a second concurrent invoke as a 400 with no body; a {@link Protocol#HTTP}
 * target answers its own way, an empty 2xx being a success (a webhook's 204). Immutable.
 *
 * @param response the records that failed (all of them unless the answer was a 2xx read as a
 *     partial batch response)
 * @param error why the batch failed, or null when it did not fail as a whole
 */
public record InvokeOutcome(BatchResponse response, ErrorKind error) {

  /** How a target is spoken to. */
  public enum Protocol {
    /** The Lambda Invoke path ({@code /2015-03-31/functions/<name>/invocations}), as the emulator serves it. */
    LAMBDA,
    /** Any other URL. */
    HTTP
  }

  /** Why a batch failed; {@link #backsOff} says whether the trigger slows down for it. */
  public enum ErrorKind {
    FUNCTION_ERROR(false), TIMEOUT(true), THROTTLED(true), HTTP_4XX(false), HTTP_5XX(true), CONNECT(true),
    REFUSED(false), BAD_RESPONSE(false);

    private final boolean backsOff;

    ErrorKind(boolean backsOff) {
      this.backsOff = backsOff;
    }

    public boolean backsOff() {
      return backsOff;
    }

    /** As the admin API and the metrics name it. */
    public String label() {
      return name().toLowerCase();
    }
  }

  /**
   * The answer as it came: its status (0: none came), why none came ({@code timedOut}, or
   * {@code refused} for an address not allowed; else a failed connection), the
   * {@code X-Amz-Function-Error} header (or null) and the body read (or null).
   */
  public record Answer(int status, boolean timedOut, boolean refused, String functionError, String body) {}

  /** The outcome of {@code a} for a batch of {@code messageIds}. */
  public static InvokeOutcome of(Answer a, Protocol protocol, boolean reportBatchItemFailures,
      List<String> messageIds) {
    if (a.status() == 0) {
      return failed(messageIds, a.timedOut() ? ErrorKind.TIMEOUT : a.refused() ? ErrorKind.REFUSED : ErrorKind.CONNECT);
    }
    if (a.status() == 429 || a.status() == 400 && protocol == Protocol.LAMBDA && isEmpty(a.body())) {
      return failed(messageIds, ErrorKind.THROTTLED);
    }
    if (a.status() >= 500) {
      return failed(messageIds, ErrorKind.HTTP_5XX);
    }
    if (a.status() < 200 || a.status() >= 300) {
      return failed(messageIds, ErrorKind.HTTP_4XX);
    }
    if (protocol == Protocol.LAMBDA) {
      ErrorKind functionError = functionError(a);
      if (functionError != null) {
        return failed(messageIds, functionError);
      }
    }
    if (!reportBatchItemFailures) {
      return new InvokeOutcome(BatchResponse.succeeded(), null);
    }
    BatchResponse r = BatchResponse.read(a.body(), messageIds, protocol == Protocol.HTTP);
    return new InvokeOutcome(r, r.wholeBatchFailed() ? ErrorKind.BAD_RESPONSE : null);
  }

  /** A 2xx of the emulator that reports the function's failure, or null. */
  private static ErrorKind functionError(Answer a) {
    String body = a.body() == null ? "" : a.body().strip();
    if (body.startsWith("Task timed out after")) {
      return ErrorKind.TIMEOUT;
    }
    if (a.functionError() != null || body.isEmpty()) {
      return ErrorKind.FUNCTION_ERROR;
    }
    Map<String, Object> parsed = body.startsWith("{") ? JsonText.parseObject(body) : null;
    if (parsed != null && !parsed.containsKey("batchItemFailures")
        && (parsed.containsKey("errorType") || parsed.containsKey("errorMessage"))) {
      return ErrorKind.FUNCTION_ERROR;
    }
    return null;
  }

  private static boolean isEmpty(String body) {
    return body == null || body.isBlank();
  }

  private static InvokeOutcome failed(List<String> messageIds, ErrorKind kind) {
    return new InvokeOutcome(BatchResponse.failed(messageIds), kind);
  }

  /** Whether the target's path is the Lambda Invoke path, which the emulator serves. */
  public static Protocol protocolOf(String path) {
    return path != null && path.matches("/2015-03-31/functions/[^/]+/invocations/?") ? Protocol.LAMBDA : Protocol.HTTP;
  }
}
