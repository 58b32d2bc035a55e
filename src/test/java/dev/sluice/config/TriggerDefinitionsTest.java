package dev.sluice.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code triggers:} list: each entry's queue and place, the request it carries, and {@code ${env:}} in headers. */
class TriggerDefinitionsTest {
  static SluiceConfig load(Map<String, String> env) {
    return ConfigLoader.load(new String[0], env);
  }

  @Test
  void anEntryIsItsQueueAndTheAdminApisRequest() {
    SluiceConfig c = load(Map.of("SLUICE_TRIGGERS", "[{\"QueueName\": \"orders\", \"FunctionName\": \"http://h/x\","
        + " \"BatchSize\": 5, \"TargetConfig\": {\"Headers\": {\"Authorization\": \"Bearer ${env:TOKEN}\"}}},"
        + " {\"QueueName\": \"other\", \"AccountId\": \"111111111111\", \"FunctionName\": \"http://h/y\"}]",
        "TOKEN", "s3cret"));
    List<TriggerDefinition> t = c.ops().triggers();
    assertEquals(2, t.size());
    assertEquals("triggers[0]", t.get(0).key());
    assertEquals("000000000000", t.get(0).accountId());
    assertEquals("us-east-1", t.get(0).region());
    assertEquals("orders", t.get(0).queueName());
    JsonObject request = new JsonObject(t.get(0).requestJson());
    assertEquals(java.util.Set.of("FunctionName", "BatchSize", "TargetConfig"), request.fieldNames());
    assertEquals("Bearer s3cret", request.getJsonObject("TargetConfig").getJsonObject("Headers")
        .getString("Authorization"), "the environment's value, never written in the file");
    assertEquals("111111111111", t.get(1).accountId());
    assertEquals(List.of(), load(Map.of()).ops().triggers());
  }

  @Test
  void aBadEntryNamesItsKey() {
    assertRefused("triggers[0].QueueName", "[{\"FunctionName\": \"http://h/x\"}]", Map.of());
    assertRefused("triggers[0].EventSourceArn", "[{\"QueueName\": \"q\", \"EventSourceArn\": \"arn\"}]", Map.of());
    assertRefused("triggers[0].AccountId", "[{\"QueueName\": \"q\", \"AccountId\": \"12\"}]", Map.of());
    assertRefused("triggers[0].Region", "[{\"QueueName\": \"q\", \"Region\": \"Mars\"}]", Map.of());
    assertRefused("triggers[0].TargetConfig.Headers.X-Key", "[{\"QueueName\": \"q\", \"TargetConfig\":"
        + " {\"Headers\": {\"X-Key\": \"${env:UNSET_VARIABLE}\"}}}]", Map.of());
    assertRefused("triggers", "{\"QueueName\": \"q\"}", Map.of());
    assertRefused("triggers", "[{\"QueueName\": \"q\"}]", Map.of("SLUICE_INVOKE_ENABLED", "false"));
  }

  static void assertRefused(String key, String triggers, Map<String, String> more) {
    Map<String, String> env = new java.util.HashMap<>(more);
    env.put("SLUICE_TRIGGERS", triggers);
    ConfigException e = assertThrows(ConfigException.class, () -> load(env));
    assertTrue(e.getMessage().contains("'" + key + "'"), e.getMessage());
  }

  @Test
  void invokeSettingsHaveTheirDefaults() {
    InvokeConfig i = load(Map.of()).invoke();
    assertEquals(new InvokeConfig(true, 1_000, 2_000, true), i);
    assertEquals(false, load(Map.of("SLUICE_INVOKE_ALLOW_PRIVATE_ADDRESSES", "false")).invoke().allowPrivateAddresses());
  }
}
