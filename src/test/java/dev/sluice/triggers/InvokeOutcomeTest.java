package dev.sluice.triggers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.triggers.InvokeOutcome.Answer;
import dev.sluice.triggers.InvokeOutcome.ErrorKind;
import dev.sluice.triggers.InvokeOutcome.Protocol;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class InvokeOutcomeTest {
  static final List<String> IDS = List.of("a", "b");

  static InvokeOutcome lambda(int status, String header, String body, boolean report) {
    return InvokeOutcome.of(new Answer(status, false, false, header, body), Protocol.LAMBDA, report, IDS);
  }

  static InvokeOutcome http(int status, String body, boolean report) {
    return InvokeOutcome.of(new Answer(status, false, false, null, body), Protocol.HTTP, report, IDS);
  }

  @Test
  void theInvokePathIsLambdas() {
    assertEquals(Protocol.LAMBDA, InvokeOutcome.protocolOf("/2015-03-31/functions/function/invocations"));
    assertEquals(Protocol.HTTP, InvokeOutcome.protocolOf("/hooks/orders"));
    assertEquals(Protocol.HTTP, InvokeOutcome.protocolOf("/2015-03-31/functions/a/b/invocations"));
  }

  @Test
  void aSuccessSettlesTheBatch() {
    assertTrue(lambda(200, null, "null", false).response().allSucceeded());
    assertTrue(lambda(200, null, "{\"statusCode\": 200}", false).response().allSucceeded());
    assertTrue(http(204, "", true).response().allSucceeded(), "a webhook's empty 2xx");
    InvokeOutcome partial = lambda(200, null, "{\"batchItemFailures\": [{\"itemIdentifier\": \"b\"}]}", true);
    assertEquals(Set.of("b"), partial.response().failed());
    assertNull(partial.error());
    assertTrue(lambda(200, null, "{\"batchItemFailures\": [{\"itemIdentifier\": \"b\"}]}", false).response()
        .allSucceeded(), "without ReportBatchItemFailures the answer is not read");
  }

  @Test
  void theEmulatorsWaysOfSayingTheFunctionFailed() {
    assertEquals(ErrorKind.FUNCTION_ERROR, lambda(200, "Unhandled", "{}", true).error());
    assertEquals(ErrorKind.FUNCTION_ERROR,
        lambda(200, null, "{\"errorType\": \"Error\", \"errorMessage\": \"boom\", \"trace\": []}", false).error());
    assertEquals(ErrorKind.TIMEOUT, lambda(200, null, "Task timed out after 3.00 seconds", false).error());
    assertEquals(ErrorKind.FUNCTION_ERROR, lambda(200, null, "", false).error(), "a runtime that exited");
    assertEquals(ErrorKind.THROTTLED, lambda(400, null, "", false).error(), "busy with another invoke");
    assertEquals(ErrorKind.HTTP_4XX, http(400, "", false).error());
  }

  @Test
  void failuresAndWhetherTheyBackOff() {
    assertEquals(ErrorKind.THROTTLED, http(429, "", false).error());
    assertEquals(ErrorKind.HTTP_5XX, lambda(502, null, "", false).error());
    assertEquals(ErrorKind.HTTP_4XX, http(404, "", false).error());
    assertEquals(ErrorKind.HTTP_4XX, http(302, "", false).error());
    assertEquals(ErrorKind.BAD_RESPONSE, http(200, "{\"batchItemFailures\": [{\"foo\": \"notvalid\"}]}", true).error());
    assertEquals(ErrorKind.TIMEOUT, InvokeOutcome.of(new Answer(0, true, false, null, null), Protocol.HTTP, false, IDS)
        .error());
    assertEquals(ErrorKind.REFUSED, InvokeOutcome.of(new Answer(0, false, true, null, null), Protocol.HTTP, false, IDS)
        .error());
    assertEquals(ErrorKind.CONNECT, InvokeOutcome.of(new Answer(0, false, false, null, null), Protocol.HTTP, false, IDS)
        .error());
    for (ErrorKind k : ErrorKind.values()) {
      assertEquals(Set.of(ErrorKind.TIMEOUT, ErrorKind.THROTTLED, ErrorKind.HTTP_5XX, ErrorKind.CONNECT).contains(k),
          k.backsOff(), k.label());
    }
    assertEquals(Set.copyOf(IDS), http(500, "", true).response().failed(), "a failed batch keeps every record");
  }
}
