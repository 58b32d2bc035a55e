package dev.sluice.topics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.AccountRegion;
import dev.sluice.api.topics.SnsErrorCode;
import dev.sluice.api.topics.SnsException;
import dev.sluice.api.topics.TopicKey;
import dev.sluice.model.MemoryBudget;
import dev.sluice.model.QueueLimit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A shard's topics: creation and its idempotency rules, the server-wide limit, deletion, listing by place. */
class TopicRegistryTest {
  static final TopicKey ORDERS = new TopicKey("111111111111", "us-east-1", "orders");
  static final MemoryBudget BUDGET = new MemoryBudget(1L << 40);
  static final long NOW = 1_000;

  static String refusal(Runnable call) {
    return assertThrows(SnsException.class, call::run).getMessage();
  }

  @Test
  void createIsIdempotentForTheSameAttributesAndTags() {
    TopicRegistry r = new TopicRegistry(new QueueLimit(10), BUDGET);
    TopicState t = r.create(ORDERS, Map.of("DisplayName", "Orders"), Map.of("team", "a"), NOW);
    assertSame(t, r.create(ORDERS, Map.of("DisplayName", "Orders"), Map.of("team", "a"), NOW + 1));
    assertSame(t, r.create(ORDERS, null, null, NOW + 1), "no attributes or tags: the topic as it is");
    assertSame(t, r.create(ORDERS, Map.of("FifoTopic", "false"), Map.of(), NOW + 1));
    assertEquals("Invalid parameter: Attributes Reason: Topic already exists with different attributes",
        refusal(() -> r.create(ORDERS, Map.of("DisplayName", "Other"), null, NOW)));
    // An attribute the topic never set differs from its default (AWS-recorded).
    assertEquals("Invalid parameter: Attributes Reason: Topic already exists with different attributes",
        refusal(() -> r.create(ORDERS, Map.of("SignatureVersion", "2"), null, NOW)));
    assertEquals("Invalid parameter: Tags Reason: Topic already exists with different tags",
        refusal(() -> r.create(ORDERS, null, Map.of("team", "a", "tier", "gold"), NOW)));
    assertEquals("Invalid parameter: Topic Name",
        refusal(() -> r.create(ORDERS, Map.of("FifoTopic", "true"), null, NOW)));
    // After SetTopicAttributes, CreateTopic without attributes still answers the topic.
    t.setAttribute("DisplayName", "Changed");
    assertSame(t, r.create(ORDERS, null, null, NOW));
  }

  @Test
  void namesFollowSnsRules() {
    TopicRegistry r = new TopicRegistry(new QueueLimit(100), BUDGET);
    for (String bad : List.of("", "a b", "a:b", "a;b", "a!b", "a@b", "a|b", "a^b", "a%b", "a.b", "x".repeat(257),
        "x.fifo")) {
      assertEquals("Invalid parameter: Topic Name",
          refusal(() -> r.create(new TopicKey("111111111111", "us-east-1", bad), null, null, NOW)), bad);
    }
    r.create(new TopicKey("111111111111", "us-east-1", "x".repeat(256)), null, null, NOW);
    r.create(new TopicKey("111111111111", "us-east-1", "Az09_-"), null, null, NOW);
    TopicState fifo = r.create(new TopicKey("111111111111", "us-east-1", "x".repeat(251) + ".fifo"),
        Map.of("FifoTopic", "true"), null, NOW);
    assertTrue(fifo.fifo());
    assertEquals("Invalid parameter: Topic Name", refusal(() -> r.create(
        new TopicKey("111111111111", "us-east-1", "x".repeat(252) + ".fifo"), Map.of("FifoTopic", "true"), null, NOW)));
    assertEquals("Invalid parameter: Attributes Reason: FifoTopic: Invalid value [yes]. Must be true or false.",
        refusal(() -> r.create(new TopicKey("111111111111", "us-east-1", "y.fifo"), Map.of("FifoTopic", "yes"), null,
            NOW)));
  }

  @Test
  void theServerWideLimitCountsTopicsAndARefusedOneTakesNoSlot() {
    QueueLimit limit = new QueueLimit(2);
    TopicRegistry one = new TopicRegistry(limit.share(), BUDGET);
    TopicRegistry two = new TopicRegistry(limit.share(), BUDGET);
    one.create(ORDERS, null, null, NOW);
    assertThrows(SnsException.class, () -> two.create(new TopicKey("111111111111", "us-east-1", "b"),
        Map.of("Colour", "blue"), null, NOW));
    two.create(new TopicKey("111111111111", "us-east-1", "b"), null, null, NOW);
    SnsException full = assertThrows(SnsException.class,
        () -> one.create(new TopicKey("111111111111", "us-east-1", "c"), null, null, NOW));
    assertEquals(SnsErrorCode.TOPIC_LIMIT_EXCEEDED, full.code());
    assertTrue(one.delete(ORDERS));
    assertFalse(one.delete(ORDERS), "deleting a topic that is gone is no error, and frees nothing twice");
    two.create(new TopicKey("111111111111", "us-east-1", "c"), null, null, NOW);
    assertEquals(2, limit.queues());
  }

  @Test
  void topicsSubscriptionsAndPoliciesAreChargedToTheMemoryBudgetAndGiveItBack() {
    MemoryBudget budget = new MemoryBudget(40_000);
    TopicRegistry r = new TopicRegistry(new QueueLimit(100), budget);
    TopicState t = r.create(ORDERS, Map.of("DisplayName", "Orders"), Map.of("team", "a"), NOW);
    long topic = budget.usedBytes();
    assertTrue(topic >= TopicState.TOPIC_BYTES, "charged " + topic);
    SubscriptionState s = t.subscribe("sqs", "arn:aws:sqs:us-east-1:111111111111:q", null, "111111111111", "p", NOW, () -> "token");
    assertTrue(budget.usedBytes() > topic);
    // A policy the budget cannot take is refused, retryably, and changes nothing.
    String big = "{\"k\":[\"" + "v".repeat(6_000) + "\"]}";
    SnsException full = assertThrows(SnsException.class, () -> t.setSubscriptionAttribute(s, "FilterPolicy", big));
    assertEquals(SnsErrorCode.THROTTLED, full.code());
    assertNull(s.attributes().filter());
    assertEquals("Invalid parameter: Attributes Reason: Policy: must be at most 30720 characters long",
        refusal(() -> r.create(new TopicKey("111111111111", "us-east-1", "p"),
            Map.of("Policy", "{\"a\":\"" + "x".repeat(30_720) + "\"}"), null, NOW)));
    // Deleted, the topic gives back all it held, its subscription's share included.
    long used = budget.usedBytes();
    r.create(new TopicKey("111111111111", "us-east-1", "other"), null, null, NOW);
    assertTrue(budget.usedBytes() > used);
    assertTrue(r.delete(ORDERS));
    assertTrue(r.delete(new TopicKey("111111111111", "us-east-1", "other")));
    assertEquals(0, budget.usedBytes());
  }

  @Test
  void eachPlaceListsOnlyItsOwnTopics() {
    TopicRegistry r = new TopicRegistry(new QueueLimit(10), BUDGET);
    r.create(ORDERS, null, null, NOW);
    r.create(new TopicKey("111111111111", "us-west-2", "orders"), null, null, NOW);
    r.create(new TopicKey("222222222222", "us-east-1", "orders"), null, null, NOW);
    assertEquals(List.of("arn:aws:sns:us-east-1:111111111111:orders"),
        r.arns(new AccountRegion("111111111111", "us-east-1")));
    assertEquals(List.of(), r.arns(new AccountRegion("333333333333", "us-east-1")));
    assertNull(r.find(new TopicKey("111111111111", "eu-west-1", "orders")));
    assertEquals("Topic does not exist", refusal(() -> r.get(new TopicKey("111111111111", "eu-west-1", "orders"))));
  }
}
