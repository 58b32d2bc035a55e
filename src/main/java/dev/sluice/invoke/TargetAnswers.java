package dev.sluice.invoke;

import dev.sluice.outbound.OutboundResult;
import dev.sluice.triggers.BatchResponse;
import dev.sluice.triggers.InvokeOutcome;
import dev.sluice.triggers.Trigger;
import java.util.List;

/**
 * A target's answer to one batch as the outbound client gave it, read into an {@link InvokeOutcome}
 * (the pure rules), and what a failed one is called in a trigger's LastError. Stateless.
 */
final class TargetAnswers {
  private TargetAnswers() {}

  static InvokeOutcome outcome(Trigger t, OutboundResult result, List<String> ids) {
    if (result.tooLarge()) {
      return new InvokeOutcome(BatchResponse.failed(ids), InvokeOutcome.ErrorKind.BAD_RESPONSE);
    }
    return InvokeOutcome.of(new InvokeOutcome.Answer(result.status(), result.timedOut(), result.notAllowed(),
        result.functionError(), result.body()), t.target().protocol(), t.settings().reportBatchItemFailures(), ids);
  }

  static String describe(InvokeOutcome.ErrorKind kind, OutboundResult result, Trigger t) {
    return switch (kind) {
      case TIMEOUT -> result.status() == 0
          ? "the target did not answer within " + t.target().timeoutSeconds() + " seconds"
          : "the function timed out";
      case FUNCTION_ERROR -> "the function failed" + (result.functionError() == null ? ""
          : " (" + result.functionError() + ")");
      case BAD_RESPONSE -> "the target's answer is not a batch response";
      case THROTTLED -> "the target is busy (HTTP status " + result.status() + ")";
      case HTTP_4XX, HTTP_5XX -> "the target answered HTTP status " + result.status();
      case CONNECT, REFUSED -> "no answer: " + result.failure();
    };
  }
}
