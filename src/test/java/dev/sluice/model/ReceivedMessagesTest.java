package dev.sluice.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.sluice.api.MessageAttributeValue;
import dev.sluice.api.ReceiveMessage;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Attribute selection on receive (AWS API reference: ReceiveMessage). */
class ReceivedMessagesTest {
  final ShardFixture shard = new ShardFixture();
  final QueueState q = shard.create("q", Map.of());
  int queues;

  /** Each case on a queue of its own, so the message received is the one just sent. */
  ReceiveMessage.Message sendAndReceive(List<String> system, List<String> user) {
    QueueState q = shard.create("case" + queues++, Map.of());
    q.send(ShardFixture.message("body", Map.of(
        "General", MessageAttributeValue.ofString("Kenobi"),
        "Hello", MessageAttributeValue.ofString("There"),
        "Help.Me", MessageAttributeValue.ofString("Me"))), false, shard.now);
    return q.receive(new ReceiveSpec(1, 0, AttributeSelection.of(system, null, user)), shard.now).get(0);
  }

  @Test
  void messageAttributeFiltersSelectAndDigestTheSubset() {
    assertEquals("4c360f3fdafd970e05fae2f149d997f5", sendAndReceive(null, List.of("All")).md5OfMessageAttributes());
    assertEquals("4c360f3fdafd970e05fae2f149d997f5", sendAndReceive(null, List.of(".*")).md5OfMessageAttributes());
    assertEquals("4c360f3fdafd970e05fae2f149d997f5", sendAndReceive(null, List.of("*")).md5OfMessageAttributes());
    assertEquals("fca026605781cb4126a1e9044df24232",
        sendAndReceive(null, List.of("General", "Hello")).md5OfMessageAttributes());
    ReceiveMessage.Message prefixed = sendAndReceive(null, List.of("Hel.*"));
    assertEquals("83fee93c1bcd8b9a5a923ffacdc636c7", prefixed.md5OfMessageAttributes());
    assertEquals(List.of("Hello", "Help.Me"), List.copyOf(prefixed.messageAttributes().keySet()));
    ReceiveMessage.Message none = sendAndReceive(null, List.of("Unknown", "AWS.", "..foo"));
    assertNull(none.messageAttributes());
    assertNull(none.md5OfMessageAttributes());
    assertNull(sendAndReceive(null, null).messageAttributes());
  }

  @Test
  void systemAttributesAreTheUnionOfBothLists() {
    ReceiveMessage.Message all = sendAndReceive(List.of("All"), null);
    assertEquals(List.of("SenderId", "SentTimestamp", "ApproximateReceiveCount", "ApproximateFirstReceiveTimestamp"),
        List.copyOf(all.attributes().keySet()));
    q.send(ShardFixture.message("x"), false, shard.now);
    ReceiveMessage.Message some = q.receive(new ReceiveSpec(10, 0, AttributeSelection.of(
        List.of("SentTimestamp"), List.of("ApproximateReceiveCount", "SequenceNumber"), null)), shard.now).get(0);
    assertEquals(List.of("SentTimestamp", "ApproximateReceiveCount"), List.copyOf(some.attributes().keySet()));
  }

  @Test
  void aTraceHeaderIsReturnedOnlyWhenSet() {
    q.send(new NewMessage("b", null, null,
        Map.of("AWSTraceHeader", MessageAttributeValue.ofString("Root=1-abc")), null, null, "s", null), false, shard.now);
    ReceiveMessage.Message m = q.receive(new ReceiveSpec(1, 30, AttributeSelection.of(List.of("All"), null, null)), shard.now).get(0);
    assertEquals("Root=1-abc", m.attributes().get("AWSTraceHeader"));
  }
}
