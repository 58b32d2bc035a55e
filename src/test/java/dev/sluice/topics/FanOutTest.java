package dev.sluice.topics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.MessageAttributeValue;
import dev.sluice.api.QueueKey;
import dev.sluice.api.topics.SnsException;
import dev.sluice.api.topics.TopicKey;
import dev.sluice.model.JsonText;
import dev.sluice.model.MemoryBudget;
import dev.sluice.model.QueueLimit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The copies one publish makes: which subscriptions, in what order, and what each receives. */
class FanOutTest {
  static final String ACCOUNT = "111111111111";
  static final long NOW = 1_764_000_000_000L;
  static final MemoryBudget BUDGET = new MemoryBudget(1L << 40);

  static TopicState topic(String name, boolean fifo) {
    return new TopicRegistry(new QueueLimit(10), BUDGET).create(new TopicKey(ACCOUNT, "us-east-1", name),
        fifo ? Map.of("FifoTopic", "true") : null, null, NOW);
  }

  static SubscriptionState subscribe(TopicState t, String queue, Map<String, String> attributes) {
    return t.subscribe("sqs", "arn:aws:sqs:us-east-1:" + ACCOUNT + ":" + queue, attributes, ACCOUNT,
        "arn:aws:iam::" + ACCOUNT + ":root", NOW, () -> "token");
  }

  static FanOut.Published published(String message, Map<String, MessageAttributeValue> attributes) {
    return new FanOut.Published("id-1", null, NOW, "http://h:1",
        PublishValidation.check(message, null, null, attributes, null, null, ""), null, null);
  }

  /** The copies of an unsigned publish. */
  static List<FanOut.Copy> copies(TopicState t, FanOut.Published p) {
    return FanOut.copies(t, p, FanOut.targets(t, p), Map.of(), "http://h:1/sns/c.pem");
  }

  @Test
  void oneSignaturePerDistinctEnvelopedMessageAndNoneForFifoTopicsOrRawCopies() {
    TopicState t = topic("signed", false);
    subscribe(t, "q1", Map.of());
    subscribe(t, "q2", Map.of());
    subscribe(t, "raw", Map.of("RawMessageDelivery", "true"));
    FanOut.Published p = published("hello", null);
    List<FanOut.Target> targets = FanOut.targets(t, p);
    Map<String, String> texts = FanOut.textsToSign(t, p, targets);
    assertEquals(List.of("hello"), List.copyOf(texts.keySet()));
    assertEquals(Envelope.stringToSign("id-1", t.arn(), null, "hello", NOW), texts.get("hello"));
    t.setAttribute("SignatureVersion", "2");
    List<FanOut.Copy> copies = FanOut.copies(t, p, targets, Map.of("hello", "c2ln"), "http://h:1/sns/c.pem");
    Map<String, Object> env = JsonText.parseObject(copies.get(1).message().body());
    assertEquals("2", env.get("SignatureVersion"));
    assertEquals("c2ln", env.get("Signature"));
    assertEquals("http://h:1/sns/c.pem", env.get("SigningCertURL"));
    assertEquals("hello", copies.get(2).message().body());

    TopicState fifo = topic("unsigned.fifo", true);
    subscribe(fifo, "f.fifo", Map.of());
    PublishContent c = PublishValidation.check("m", null, null, null, "g", "d", "");
    FanOut.Published fp = new FanOut.Published("id", "10000000000000000001", NOW, "http://h:1", c, "d", null);
    assertEquals(Map.of(), FanOut.textsToSign(fifo, fp, FanOut.targets(fifo, fp)));
  }

  @Test
  void copiesFollowSubscriptionOrderAndFilters() {
    TopicState t = topic("orders", false);
    subscribe(t, "q1", Map.of());
    subscribe(t, "q2", Map.of("FilterPolicy", "{\"kind\":[\"big\"]}"));
    subscribe(t, "q3", Map.of("FilterPolicyScope", "MessageBody", "FilterPolicy", "{\"size\":[{\"numeric\":[\">\",5]}]}"));
    List<FanOut.Copy> small = copies(t, published("{\"size\":1}",
        Map.of("kind", new MessageAttributeValue("String", "small", null))));
    assertEquals(List.of("q1"), small.stream().map(c -> c.queue().name()).toList());
    List<FanOut.Copy> big = copies(t, published("{\"size\":9}",
        Map.of("kind", new MessageAttributeValue("String", "big", null))));
    assertEquals(List.of("q1", "q2", "q3"), big.stream().map(c -> c.queue().name()).toList());
    assertEquals(new QueueKey(ACCOUNT, "us-east-1", "q2"), big.get(1).queue());
  }

  @Test
  void anEnvelopeOrTheRawMessage() {
    TopicState t = topic("orders", false);
    SubscriptionState wrapped = subscribe(t, "q1", Map.of());
    subscribe(t, "q2", Map.of("RawMessageDelivery", "true"));
    Map<String, MessageAttributeValue> attrs = Map.of("b", new MessageAttributeValue("Binary", null, new byte[] {2, 3, 4}));
    List<FanOut.Copy> copies = copies(t, published("hello", attrs));
    Map<String, Object> env = JsonText.parseObject(copies.get(0).message().body());
    assertEquals("hello", env.get("Message"));
    assertEquals("http://h:1/?Action=Unsubscribe&SubscriptionArn=" + wrapped.arn(), env.get("UnsubscribeURL"));
    assertEquals("2025-11-24T16:00:00.000Z", env.get("Timestamp"));
    assertEquals(Map.of("Type", "Binary", "Value", "AgME"), ((Map<?, ?>) env.get("MessageAttributes")).get("b"));
    assertNull(copies.get(0).message().attributes(), "an envelope carries the attributes inside");
    assertEquals("hello", copies.get(1).message().body());
    assertEquals(attrs, copies.get(1).message().attributes());
    assertEquals(FanOut.SENDER_ID, copies.get(1).message().senderId());
  }

  @Test
  void fifoQueuesGetTheGroupAndDeduplicationIdAndStandardQueuesNeither() {
    TopicState t = topic("ledger.fifo", true);
    subscribe(t, "a.fifo", Map.of());
    subscribe(t, "audit", Map.of());
    PublishContent content = PublishValidation.check("Test", null, null, null, "g1", null, "");
    String dedup = FanOut.deduplicationIdOf(content);
    assertEquals("532eaabd9574880dbf76b9b8cc00832c20a6ec113d682299550d7a6e0f345e25", dedup);
    List<FanOut.Copy> copies = copies(t,
        new FanOut.Published("id", "10000000000000000001", NOW, "http://h:1", content, dedup, null));
    assertEquals("g1", copies.get(0).message().groupId());
    assertEquals(dedup, copies.get(0).message().deduplicationId());
    assertNull(copies.get(1).message().groupId());
    assertNull(copies.get(1).message().deduplicationId());
    assertTrue(copies.get(1).message().body().contains("\"SequenceNumber\":\"10000000000000000001\""));
  }

  @Test
  void subscribeRefusesWhatAwsRefusesAndAnswersTheSameSubscriptionAgain() {
    TopicState t = topic("orders", false);
    SubscriptionState s = subscribe(t, "q1", Map.of("RawMessageDelivery", "True"));
    assertEquals(s, subscribe(t, "q1", Map.of("RawMessageDelivery", "true")));
    assertEquals("Invalid parameter: Attributes Reason: Subscription already exists with different attributes",
        assertThrows(SnsException.class, () -> subscribe(t, "q1", Map.of())).getMessage());
    assertEquals("Invalid parameter: Attributes Reason: RawMessageDelivery: Invalid value [wrongvalue]. Must be true"
        + " or false.", assertThrows(SnsException.class,
        () -> subscribe(t, "q2", Map.of("RawMessageDelivery", "wrongvalue"))).getMessage());
    assertTrue(assertThrows(SnsException.class, () -> subscribe(t, "q2", Map.of("FilterPolicy", "{invalidjson}")))
        .getMessage().startsWith("Invalid parameter: Attributes Reason: FilterPolicy: failed to parse JSON."));
    assertEquals("Invalid parameter: Endpoint Reason: Sluice delivers to queues of the topic's own account only",
        assertThrows(SnsException.class, () -> t.subscribe("sqs", "arn:aws:sqs:us-east-1:222222222222:q", null,
            ACCOUNT, "p", NOW, () -> "token")).getMessage());
    assertEquals("Invalid parameter: RedrivePolicy: deadLetterTargetArn is an invalid arn",
        assertThrows(SnsException.class, () -> t.setSubscriptionAttribute(s, "RedrivePolicy",
            "{\"deadLetterTargetArn\": \"fake-arn\"}")).getMessage());
    assertEquals("Invalid parameter: AttributeName",
        assertThrows(SnsException.class, () -> t.setSubscriptionAttribute(s, "FakeAttribute", "x")).getMessage());
    assertEquals("Invalid parameter: RawMessageDelivery: Invalid value []. Must be true or false.",
        assertThrows(SnsException.class, () -> t.setSubscriptionAttribute(s, "RawMessageDelivery", "")).getMessage());
  }

  @Test
  void aFifoTopicTakesAHundredSubscriptions() {
    TopicState t = topic("many.fifo", true);
    for (int i = 0; i < 100; i++) {
      subscribe(t, "q" + i + ".fifo", Map.of());
    }
    assertEquals("SubscriptionLimitExceeded", assertThrows(SnsException.class,
        () -> subscribe(t, "one-more.fifo", Map.of())).code().code());
  }
}
