package dev.sluice.topics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.model.JsonText;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeliveryPolicyTest {

  @Test
  void theDefaultIsThreeRetriesTwentySecondsApart() {
    DeliveryPolicy p = DeliveryPolicy.effective(null, null);
    assertEquals(DeliveryPolicy.DEFAULT, p);
    assertEquals(3, p.numRetries());
    for (int r = 1; r <= 3; r++) {
      assertEquals(20_000, p.delayMillis(r, 0));
    }
    assertEquals("text/plain; charset=UTF-8", p.headerContentType());
  }

  @Test
  void phasesComeInOrderAndTheBackoffRisesFromTheMinimumToTheMaximum() {
    for (String function : new String[] {"linear", "arithmetic", "geometric", "exponential"}) {
      DeliveryPolicy p = DeliveryPolicy.effective(null, "{\"healthyRetryPolicy\": {\"numRetries\": 12,"
          + " \"numNoDelayRetries\": 2, \"numMinDelayRetries\": 3, \"numMaxDelayRetries\": 2, \"minDelayTarget\": 2,"
          + " \"maxDelayTarget\": 40, \"backoffFunction\": \"" + function + "\"}}");
      assertEquals(0, p.baseDelaySeconds(1), function);
      assertEquals(0, p.baseDelaySeconds(2), function);
      for (int r = 3; r <= 5; r++) {
        assertEquals(2, p.baseDelaySeconds(r), function);
      }
      double previous = 2;
      for (int r = 6; r <= 10; r++) {
        double d = p.baseDelaySeconds(r);
        assertTrue(d >= previous && d <= 40, function + " retry " + r + ": " + d);
        previous = d;
      }
      assertEquals(40, p.baseDelaySeconds(10), 1e-9, function + ": the backoff ends at the maximum");
      assertEquals(40, p.baseDelaySeconds(11), function);
      assertEquals(40, p.baseDelaySeconds(12), function);
    }
  }

  @Test
  void jitterStaysWithinTenPercent() {
    DeliveryPolicy p = DeliveryPolicy.DEFAULT;
    assertEquals(18_000, p.delayMillis(1, -1));
    assertEquals(22_000, p.delayMillis(1, 1));
  }

  @Test
  void aSubscriptionSectionReplacesTheTopicsUnlessOverridesAreDisabled() {
    String topic = "{\"http\": {\"defaultHealthyRetryPolicy\": {\"numRetries\": 5, \"minDelayTarget\": 1,"
        + " \"maxDelayTarget\": 1}, \"defaultRequestPolicy\": {\"headerContentType\": \"application/json\"}}}";
    String sub = "{\"healthyRetryPolicy\": {\"numRetries\": 1, \"minDelayTarget\": 3, \"maxDelayTarget\": 3},"
        + " \"throttlePolicy\": {\"maxReceivesPerSecond\": 7}}";
    DeliveryPolicy p = DeliveryPolicy.effective(topic, sub);
    assertEquals(1, p.numRetries());
    assertEquals(3, p.minDelayTarget());
    assertEquals(7, p.maxReceivesPerSecond());
    assertEquals("application/json", p.headerContentType());
    DeliveryPolicy locked = DeliveryPolicy.effective(topic.replace("}}}", "}, \"disableSubscriptionOverrides\": true}}"),
        sub);
    assertEquals(5, locked.numRetries());
    assertEquals(0, locked.maxReceivesPerSecond());
  }

  @Test
  void awsRulesAreChecked() {
    assertEquals("failed to parse JSON.", DeliveryPolicy.problemOfSubscriptionPolicy("{"));
    assertEquals("Unsupported property: retry", DeliveryPolicy.problemOfSubscriptionPolicy("{\"retry\": {}}"));
    assertEquals("minDelayTarget must be less than or equal to maxDelayTarget",
        DeliveryPolicy.problemOfSubscriptionPolicy(
            "{\"healthyRetryPolicy\": {\"minDelayTarget\": 5, \"maxDelayTarget\": 4}}"));
    assertEquals("minDelayTarget must be an integer from 1 to 3600",
        DeliveryPolicy.problemOfSubscriptionPolicy("{\"healthyRetryPolicy\": {\"minDelayTarget\": 0}}"));
    assertEquals("numRetries must be at least numNoDelayRetries + numMinDelayRetries + numMaxDelayRetries",
        DeliveryPolicy.problemOfSubscriptionPolicy(
            "{\"healthyRetryPolicy\": {\"numRetries\": 2, \"numNoDelayRetries\": 3}}"));
    assertEquals("numRetries must be an integer from 0 to 100",
        DeliveryPolicy.problemOfSubscriptionPolicy("{\"healthyRetryPolicy\": {\"numRetries\": 101}}"));
    assertEquals("the total time of all retries must not exceed 3600 seconds",
        DeliveryPolicy.problemOfSubscriptionPolicy("{\"healthyRetryPolicy\": {\"numRetries\": 100,"
            + " \"minDelayTarget\": 60, \"maxDelayTarget\": 60}}"));
    assertEquals("backoffFunction must be one of arithmetic, exponential, geometric, linear",
        DeliveryPolicy.problemOfSubscriptionPolicy("{\"healthyRetryPolicy\": {\"backoffFunction\": \"cubic\"}}"));
    assertEquals("maxReceivesPerSecond must be an integer from 1 to 2147483647",
        DeliveryPolicy.problemOfSubscriptionPolicy("{\"throttlePolicy\": {\"maxReceivesPerSecond\": 0}}"));
    assertTrue(DeliveryPolicy.problemOfSubscriptionPolicy("{\"requestPolicy\": {\"headerContentType\":"
        + " \"image/png\"}}").startsWith("headerContentType must be one of"));
    assertNull(DeliveryPolicy.problemOfSubscriptionPolicy("{\"healthyRetryPolicy\": {\"numRetries\": 100,"
        + " \"numNoDelayRetries\": 100, \"minDelayTarget\": 1, \"maxDelayTarget\": 3600}}"));
    assertNull(DeliveryPolicy.problemOfTopicPolicy("{\"http\": {\"defaultRequestPolicy\": {\"headerContentType\":"
        + " \"application/json; charset=UTF-8\"}}}"));
    assertEquals("disableSubscriptionOverrides must be true or false",
        DeliveryPolicy.problemOfTopicPolicy("{\"http\": {\"disableSubscriptionOverrides\": 1}}"));
  }

  @Test
  void theEffectivePolicyShowsAwsKeys() {
    Map<String, Object> view = JsonText.parseObject(DeliveryPolicy.DEFAULT.view());
    assertEquals(java.util.List.of("healthyRetryPolicy", "sicklyRetryPolicy", "throttlePolicy", "requestPolicy",
        "guaranteed"), java.util.List.copyOf(view.keySet()));
  }
}
