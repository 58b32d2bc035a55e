package dev.sluice.triggers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.triggers.LambdaErrorCode;
import dev.sluice.api.triggers.LambdaException;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TargetSettingsTest {
  static final String EMULATOR = "http://127.0.0.1:9000/2015-03-31/functions/function/invocations";

  static String refused(String url, Integer timeout, Map<String, String> headers, Integer concurrent) {
    LambdaException e = assertThrows(LambdaException.class,
        () -> TargetSettings.check(url, null, timeout, headers, null, concurrent));
    assertEquals(LambdaErrorCode.INVALID_PARAMETER_VALUE, e.code());
    return e.getMessage();
  }

  @Test
  void theEmulatorsInvokePathTakesOneRequestAtATimeOthersAsManyAsTheTriggerRuns() {
    TargetSettings lambda = TargetSettings.check(EMULATOR, null, null, null, null, null);
    assertEquals(InvokeOutcome.Protocol.LAMBDA, lambda.protocol());
    assertEquals(1, lambda.maxConcurrentRequests());
    assertEquals(30, lambda.timeoutSeconds());
    assertTrue(lambda.verifyTls());
    TargetSettings hook = TargetSettings.check("https://hooks.internal/orders", null, 5,
        Map.of("Authorization", "Bearer abc"), false, null);
    assertEquals(InvokeOutcome.Protocol.HTTP, hook.protocol());
    assertEquals(0, hook.maxConcurrentRequests());
    assertEquals(Map.of("Authorization", "Bearer abc"), hook.headers());
    assertEquals(InvokeOutcome.Protocol.HTTP, TargetSettings.check(EMULATOR, "http", null, null, null, 4).protocol());
  }

  @Test
  void aUrlAndItsSettingsAreChecked() {
    assertTrue(refused("ftp://h/x", null, null, null).startsWith("FunctionName must be"));
    assertTrue(refused("/relative", null, null, null).startsWith("FunctionName must be"));
    assertTrue(refused("http://u:p@h/x", null, null, null).startsWith("FunctionName may have no user info"));
    assertTrue(refused("http://h/x#frag", null, null, null).startsWith("FunctionName may have no user info"));
    assertTrue(refused("http://h/" + "x".repeat(2_050), null, null, null).startsWith("FunctionName must be"));
    assertEquals("TargetConfig.TimeoutSeconds must be from 1 to 900.", refused(EMULATOR, 901, null, null));
    assertEquals("TargetConfig.MaxConcurrentRequests must be from 1 to 1000.", refused(EMULATOR, null, null, 0));
  }

  @Test
  void headersCannotTakeOverTheRequest() {
    assertEquals("TargetConfig.Headers: Host is set by Sluice, not by a trigger.",
        refused(EMULATOR, null, Map.of("Host", "elsewhere"), null));
    assertEquals("TargetConfig.Headers: Proxy-Authorization is set by Sluice, not by a trigger.",
        refused(EMULATOR, null, Map.of("Proxy-Authorization", "x"), null));
    assertEquals("TargetConfig.Headers: the value of X-A has a line break.",
        refused(EMULATOR, null, Map.of("X-A", "a\r\nX-Injected: 1"), null));
    assertEquals("TargetConfig.Headers: 'bad name' is not a header name.",
        refused(EMULATOR, null, Map.of("bad name", "x"), null));
    Map<String, String> many = new HashMap<>();
    for (int i = 0; i < 21; i++) {
      many.put("X-" + i, "v");
    }
    assertEquals("TargetConfig.Headers may hold at most 20 headers.", refused(EMULATOR, null, many, null));
    assertEquals("TargetConfig.Headers may hold at most 8192 bytes.",
        refused(EMULATOR, null, Map.of("X-Big", "v".repeat(8_200)), null));
  }

  @Test
  void theQueueMustKeepABatchLongerThanItsInvoke() {
    TargetSettings slow = TargetSettings.check(EMULATOR, null, 60, null, null, null);
    LambdaException e = assertThrows(LambdaException.class, () -> slow.checkAgainstVisibility(30));
    assertEquals("Queue visibility timeout: 30 seconds is less than Function timeout: 60 seconds", e.getMessage());
    slow.checkAgainstVisibility(60);
  }
}
