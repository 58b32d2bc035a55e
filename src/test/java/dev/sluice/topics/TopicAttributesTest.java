package dev.sluice.topics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.api.topics.SnsException;
import dev.sluice.api.topics.TopicKey;
import dev.sluice.model.JsonText;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** What GetTopicAttributes shows (AWS-recorded sets) and what SetTopicAttributes accepts, in SNS's words. */
class TopicAttributesTest {
  static final TopicKey KEY = new TopicKey("111111111111", "us-east-1", "orders");
  static final TopicKey FIFO_KEY = new TopicKey("111111111111", "us-east-1", "orders.fifo");

  static String refusal(Runnable call) {
    return assertThrows(SnsException.class, call::run).getMessage();
  }

  @Test
  void aNewStandardTopicShowsAwsRecordedAttributes() {
    Map<String, String> view = TopicAttributes.create(false, null).view(KEY, 0, 0, 0);
    assertEquals(Set.of("DisplayName", "EffectiveDeliveryPolicy", "Owner", "Policy", "SubscriptionsConfirmed",
        "SubscriptionsDeleted", "SubscriptionsPending", "TopicArn"), view.keySet());
    assertEquals("", view.get("DisplayName"));
    assertEquals("111111111111", view.get("Owner"));
    assertEquals(KEY.arn(), view.get("TopicArn"));
    assertEquals("{\"Version\":\"2008-10-17\",\"Id\":\"__default_policy_ID\",\"Statement\":[{\"Sid\":"
        + "\"__default_statement_ID\",\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"*\"},\"Action\":["
        + "\"SNS:GetTopicAttributes\",\"SNS:SetTopicAttributes\",\"SNS:AddPermission\",\"SNS:RemovePermission\","
        + "\"SNS:DeleteTopic\",\"SNS:Subscribe\",\"SNS:ListSubscriptionsByTopic\",\"SNS:Publish\"],\"Resource\":"
        + "\"arn:aws:sns:us-east-1:111111111111:orders\",\"Condition\":{\"StringEquals\":{\"AWS:SourceOwner\":"
        + "\"111111111111\"}}}]}", view.get("Policy"));
    assertEquals(TopicAttributes.DEFAULT_DELIVERY_POLICY, view.get("EffectiveDeliveryPolicy"));
  }

  @Test
  void aFifoTopicAddsItsKindAndDeduplication() {
    Map<String, String> view = TopicAttributes.create(true, Map.of("FifoTopic", "true")).view(FIFO_KEY, 0, 0, 0);
    assertEquals("true", view.get("FifoTopic"));
    assertEquals("false", view.get("ContentBasedDeduplication"));
    assertFalse(view.containsKey("FifoThroughputScope"));
    TopicAttributes a = TopicAttributes.create(true, Map.of("FifoTopic", "true", "ContentBasedDeduplication", "true",
        "FifoThroughputScope", "MessageGroup"));
    assertEquals("true", a.view(FIFO_KEY, 0, 0, 0).get("ContentBasedDeduplication"));
    assertEquals("MessageGroup", a.get("FifoThroughputScope"));
    assertEquals(true, a.contentBasedDeduplication());
  }

  @Test
  void setTopicAttributesChecksNamesAndValues() {
    TopicAttributes a = TopicAttributes.create(false, null);
    assertEquals("Invalid parameter: AttributeName", refusal(() -> a.with("FifoTopic", "false")));
    assertEquals("Invalid parameter: AttributeName", refusal(() -> a.with("Colour", "blue")));
    assertEquals("Invalid parameter: SignatureVersion: Invalid value [3]. Must be 1 or 2.",
        refusal(() -> a.with("SignatureVersion", "3")));
    assertEquals("Invalid parameter: TracingConfig: Invalid value [On]. Must be PassThrough or Active.",
        refusal(() -> a.with("TracingConfig", "On")));
    assertEquals("Invalid parameter: Policy: failed to parse JSON.", refusal(() -> a.with("Policy", "{nope")));
    assertEquals("Invalid parameter: ContentBasedDeduplication: only FIFO topics have this attribute",
        refusal(() -> a.with("ContentBasedDeduplication", "true")));
    assertEquals("Invalid parameter: SQSSuccessFeedbackSampleRate: Invalid value [101]. Must be an integer from 0"
        + " to 100.", refusal(() -> a.with("SQSSuccessFeedbackSampleRate", "101")));
    assertEquals("Invalid parameter: Attributes Reason: Invalid attribute name: Colour",
        refusal(() -> TopicAttributes.create(false, Map.of("Colour", "blue"))));
    assertEquals("Invalid parameter: Attributes Reason: SignatureVersion: Invalid value [9]. Must be 1 or 2.",
        refusal(() -> TopicAttributes.create(false, Map.of("SignatureVersion", "9"))));

    TopicAttributes set = a.with("DisplayName", "Orders").with("SignatureVersion", "2").with("TracingConfig", "Active")
        .with("KmsMasterKeyId", "alias/aws/sns").with("SQSSuccessFeedbackSampleRate", "100");
    Map<String, String> view = set.view(KEY, 1, 2, 3);
    assertEquals("Orders", view.get("DisplayName"));
    assertEquals("2", view.get("SignatureVersion"));
    assertEquals("alias/aws/sns", view.get("KmsMasterKeyId"));
    assertEquals("1", view.get("SubscriptionsConfirmed"));
    assertEquals("2", view.get("SubscriptionsPending"));
    assertEquals("3", view.get("SubscriptionsDeleted"));
    assertNull(set.with("KmsMasterKeyId", null).get("KmsMasterKeyId"), "no value clears the attribute");
  }

  @Test
  void aPolicyOrDeliveryPolicySetEmptyIsTheDefaultAgain() {
    String policy = "{\"Version\":\"2012-10-17\",\"Statement\":[]}";
    TopicAttributes a = TopicAttributes.create(false, null).with("Policy", policy);
    assertEquals(policy, a.view(KEY, 0, 0, 0).get("Policy"));
    assertEquals(TopicAttributes.defaultPolicy(KEY), a.with("Policy", "").view(KEY, 0, 0, 0).get("Policy"));
  }

  @Test
  void theEffectiveDeliveryPolicyLaysTheTopicsHttpSectionOverTheDefault() {
    TopicAttributes a = TopicAttributes.create(false, null).with("DeliveryPolicy",
        "{\"http\":{\"defaultHealthyRetryPolicy\":{\"minDelayTarget\":5,\"maxDelayTarget\":6,\"numRetries\":1}}}");
    Map<String, Object> effective = JsonText.parseObject(a.view(KEY, 0, 0, 0).get("EffectiveDeliveryPolicy"));
    @SuppressWarnings("unchecked")
    Map<String, Object> http = new TreeMap<>((Map<String, Object>) effective.get("http"));
    assertEquals(Set.of("defaultHealthyRetryPolicy", "disableSubscriptionOverrides", "defaultRequestPolicy"),
        http.keySet());
    assertEquals(Map.of("minDelayTarget", 5, "maxDelayTarget", 6, "numRetries", 1),
        normalized(http.get("defaultHealthyRetryPolicy")));
    assertEquals(TopicAttributes.DEFAULT_DELIVERY_POLICY,
        a.with("DeliveryPolicy", "").view(KEY, 0, 0, 0).get("EffectiveDeliveryPolicy"));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Integer> normalized(Object section) {
    Map<String, Integer> out = new TreeMap<>();
    ((Map<String, Object>) section).forEach((k, v) -> out.put(k, ((Number) v).intValue()));
    return out;
  }
}
