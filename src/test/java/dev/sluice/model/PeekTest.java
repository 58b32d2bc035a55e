package dev.sluice.model;

import static dev.sluice.model.ShardFixture.message;
import static dev.sluice.model.ShardFixture.spec;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.Limits;
import dev.sluice.api.MessageAttributeValue;
import dev.sluice.api.PeekMessages;
import dev.sluice.api.PeekMessages.Peeked;
import dev.sluice.api.PeekMessages.PeekedAttribute;
import dev.sluice.api.PeekMessages.PeekedState;
import dev.sluice.api.ReceiveMessage;
import dev.sluice.api.SendMessage;
import dev.sluice.api.SqsException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The console's peek on the model, with a manual clock (design/console.md §2.5). */
class PeekTest {
  final ShardFixture shard = new ShardFixture();

  static PeekMessages.Response page(QueueState q, Integer offset, Integer max, Integer preview, long now) {
    return q.peek(new PeekMessages.Request("url", offset, max, preview, null), now);
  }

  static Peeked byKey(QueueState q, String key, long now) {
    PeekMessages.Response r = q.peek(new PeekMessages.Request("url", null, null, null, key), now);
    assertEquals(1, r.messages().size());
    return r.messages().get(0);
  }

  static List<String> bodies(PeekMessages.Response r) {
    return r.messages().stream().map(Peeked::body).toList();
  }

  @Test
  void eachStateIsShownWithWhenItBecomesVisible() {
    QueueState q = shard.create("orders", Map.of());
    long sentA = shard.now;
    q.send(message("a"), false, shard.now);
    shard.advance(1);
    long sentB = shard.now;
    q.send(message("b", 10), false, shard.now);
    shard.advance(1);
    q.send(message("c"), false, shard.now);
    shard.advance(1);
    long receivedAt = shard.now;
    // a is the oldest ready message: the receive takes it, then c is the only ready one.
    assertEquals("a", q.receive(spec(1, 30), shard.now).get(0).body());
    shard.advance(5);

    PeekMessages.Response r = page(q, null, null, null, shard.now);
    assertEquals(List.of("a", "b", "c"), bodies(r));
    assertEquals(3, r.resident());
    assertEquals(0, r.durableOnly());
    assertFalse(r.truncated());
    Peeked a = r.messages().get(0);
    assertEquals(PeekedState.IN_FLIGHT, a.state());
    assertEquals(receivedAt + 30_000, a.visibleAt());
    assertEquals(1, a.receiveCount());
    assertEquals(receivedAt, a.firstReceiveTimestamp());
    assertEquals(sentA, a.sentTimestamp());
    Peeked b = r.messages().get(1);
    assertEquals(PeekedState.DELAYED, b.state());
    assertEquals(sentB + 10_000, b.visibleAt());
    assertEquals(0, b.receiveCount());
    assertNull(b.firstReceiveTimestamp());
    Peeked c = r.messages().get(2);
    assertEquals(PeekedState.READY, c.state());
    assertEquals(shard.now, c.visibleAt());
    assertEquals("sender", c.senderId());
    assertEquals(java.util.HexFormat.of().formatHex(Digests.md5("c")), c.md5OfBody());
    assertNull(c.groupId());
    assertNull(c.deduplicationId());
    assertNull(c.sequenceNumber());
    assertNull(c.attributes());
  }

  @Test
  void pendingMessagesAreSkippedUntilTheirWriteCommits() {
    ChangeLogTest.Recording log = new ChangeLogTest.Recording(true);
    ShardFixture held = new ShardFixture(1L << 30, 100, 1000, 120_000, log);
    QueueState q = held.create("orders", Map.of());
    q.send(message("a"), false, held.now);
    q.send(message("b"), false, held.now);
    q.send(message("c"), false, held.now);
    assertEquals(List.of(), page(q, null, null, null, held.now).messages());
    assertEquals(0, page(q, null, null, null, held.now).resident());

    q.commitPending(log.stored.get(1), held.now);
    PeekMessages.Response r = page(q, null, null, null, held.now);
    assertEquals(List.of("b"), bodies(r));
    assertEquals(1, r.resident());
    // An offset counts browsable messages only: the pending a before b is not one of them.
    assertEquals(List.of(), page(q, 1, null, null, held.now).messages());
  }

  @Test
  void aFifoMessageShowsItsGroupDeduplicationIdAndSequenceNumber() {
    QueueState q = shard.create("orders.fifo", Map.of("FifoQueue", "true"));
    SendMessage.Response sent = q.send(
        new NewMessage("hello", null, null, null, "dedup-1", "group-1", "sender", null), false, shard.now);
    Peeked p = page(q, null, null, null, shard.now).messages().get(0);
    assertEquals("group-1", p.groupId());
    assertEquals("dedup-1", p.deduplicationId());
    assertEquals(sent.sequenceNumber(), p.sequenceNumber());
    assertEquals(sent.messageId(), p.messageId());
  }

  @Test
  void aDeadLetterShowsItsSourceAndTakesItsPlaceBySentTime() {
    QueueState dlq = shard.create("dead", Map.of());
    QueueState source = shard.create("orders", Map.of("RedrivePolicy",
        "{\"deadLetterTargetArn\":\"" + dlq.metadata().arn() + "\",\"maxReceiveCount\":1}"));
    source.send(message("moved"), false, shard.now);
    shard.advance(1);
    dlq.send(message("direct-early"), false, shard.now);
    assertEquals(1, source.receive(spec(1, 1), shard.now).size());
    shard.advance(2_000);
    assertEquals(List.of(), source.receive(spec(1, 1), shard.now)); // over maxReceiveCount: moved
    dlq.send(message("direct-late"), false, shard.now);

    PeekMessages.Response r = page(dlq, null, null, null, shard.now);
    // Oldest first across both retention lists: the dead letter keeps the time it was first sent.
    assertEquals(List.of("moved", "direct-early", "direct-late"), bodies(r));
    assertEquals(source.metadata().arn(), r.messages().get(0).deadLetterSourceArn());
    assertEquals(1, r.messages().get(0).receiveCount());
    assertNull(r.messages().get(1).deadLetterSourceArn());
  }

  @Test
  void aBodyIsCutOnACharacterBoundaryOfEveryWidth() {
    QueueState q = shard.create("orders", Map.of());
    String body = "a\u00e9\u20ac\ud83d\ude00"; // 1, 2, 3 and 4 UTF-8 bytes: 10 in all
    q.send(message(body), false, shard.now);
    String[] expected = {"", "a", "a", "a\u00e9", "a\u00e9", "a\u00e9", "a\u00e9\u20ac", "a\u00e9\u20ac",
        "a\u00e9\u20ac", "a\u00e9\u20ac", body, body};
    for (int preview = 0; preview <= 11; preview++) {
      Peeked p = page(q, null, null, preview, shard.now).messages().get(0);
      assertEquals(expected[preview], p.body(), "preview " + preview);
      assertEquals(10, p.bodyBytes());
      assertEquals(preview < 10, p.bodyTruncated(), "preview " + preview);
    }
  }

  @Test
  void attributeValuesAreCutAt256Bytes() {
    QueueState q = shard.create("orders", Map.of());
    byte[] blob = new byte[300];
    Arrays.fill(blob, (byte) 7);
    q.send(message("m", Map.of(
        "short", MessageAttributeValue.ofString("blue"),
        "wide", MessageAttributeValue.ofString("x".repeat(255) + "\u20ac"),
        "blob", new MessageAttributeValue("Binary", null, blob))), false, shard.now);
    Map<String, PeekedAttribute> a = page(q, null, null, null, shard.now).messages().get(0).attributes();
    assertEquals(new PeekedAttribute("String", "blue", null, 4, false), a.get("short"));
    assertEquals(new PeekedAttribute("String", "x".repeat(255), null, 258, true), a.get("wide"));
    assertEquals(new PeekedAttribute("Binary", null, Arrays.copyOf(blob, 256), 300, true), a.get("blob"));
  }

  @Test
  void parametersOutsideTheLimitsAreRefusedAndAbsentOnesTakeTheDefaults() {
    QueueState q = shard.create("orders", Map.of());
    for (int i = 0; i < 25; i++) {
      q.send(message("x".repeat(3_000)), false, shard.now);
    }
    PeekMessages.Response r = page(q, null, null, null, shard.now);
    assertEquals(Limits.PEEK_MAX_MESSAGES_DEFAULT, r.messages().size());
    assertEquals(Limits.PEEK_PREVIEW_BYTES_DEFAULT, r.messages().get(0).body().length());
    assertEquals(25, page(q, 0, 50, 0, shard.now).messages().size());
    assertEquals(0, page(q, 9_950, 50, 0, shard.now).messages().size()); // the largest offset allowed
    for (int[] bad : new int[][] {{0, 0, 0}, {0, 51, 0}, {-1, 1, 0}, {0, 1, -1}, {0, 1, 65_537}, {9_951, 50, 0},
        {10_000, 1, 0}}) {
      SqsException e = assertThrows(SqsException.class, () -> page(q, bad[0], bad[1], bad[2], shard.now),
          Arrays.toString(bad));
      assertEquals(ErrorCode.INVALID_PARAMETER_VALUE, e.code());
    }
    assertEquals(3_000, page(q, 0, 1, 65_536, shard.now).messages().get(0).body().length());
  }

  @Test
  void pagesFollowEachOtherOldestFirst() {
    QueueState q = shard.create("orders", Map.of());
    List<String> sent = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      sent.add("m" + i);
      q.send(message("m" + i), false, shard.now);
      shard.advance(1);
    }
    List<String> seen = new ArrayList<>();
    seen.addAll(bodies(page(q, 0, 10, null, shard.now)));
    seen.addAll(bodies(page(q, 10, 10, null, shard.now)));
    PeekMessages.Response last = page(q, 20, 50, null, shard.now);
    seen.addAll(bodies(last));
    assertEquals(sent, seen);
    assertFalse(last.truncated());
    assertEquals(30, last.resident());
    assertEquals(List.of(), page(q, 30, 10, null, shard.now).messages());
  }

  @Test
  void aPageStopsBeforeItsPreviewsPassOneMebibyte() {
    QueueState q = shard.create("orders", Map.of());
    for (int i = 0; i < 20; i++) {
      q.send(message(Character.toString('a' + i).repeat(70_000)), false, shard.now);
    }
    PeekMessages.Response first = page(q, 0, 20, 65_536, shard.now);
    assertEquals(16, first.messages().size()); // 16 × 64 KiB is 1 MiB exactly
    assertTrue(first.truncated());
    PeekMessages.Response rest = page(q, 16, 20, 65_536, shard.now);
    assertEquals(4, rest.messages().size());
    assertFalse(rest.truncated());
    assertEquals("q".repeat(65_536), rest.messages().get(0).body());
  }

  @Test
  void aKeyNamesOneMessageWithItsWholeBodyUntilItIsGone() {
    QueueState q = shard.create("orders", Map.of());
    String big = "\u20ac".repeat(100_000);
    q.send(message("first"), false, shard.now);
    q.send(message(big), false, shard.now);
    Peeked previewed = page(q, null, null, null, shard.now).messages().get(1);
    assertTrue(previewed.bodyTruncated());
    assertEquals("\u20ac".repeat(682), previewed.body()); // 2,046 of the 2,048 bytes: whole characters

    Peeked whole = byKey(q, previewed.key(), shard.now);
    assertEquals(big, whole.body());
    assertFalse(whole.bodyTruncated());
    assertEquals(300_000, whole.bodyBytes());
    assertEquals(previewed.messageId(), whole.messageId());
    assertTrue(previewed.key().matches("[A-Za-z0-9_-]+"), previewed.key());

    List<ReceiveMessage.Message> got = q.receive(spec(2, 30), shard.now);
    q.delete(got.get(1).receiptHandle(), shard.now);
    assertEquals(ErrorCode.MESSAGE_NOT_FOUND,
        assertThrows(SqsException.class, () -> byKey(q, previewed.key(), shard.now)).code());
    for (String malformed : List.of("", "abc", previewed.key() + "A", "!".repeat(22))) {
      assertEquals(ErrorCode.INVALID_PARAMETER_VALUE,
          assertThrows(SqsException.class, () -> byKey(q, malformed, shard.now)).code(), malformed);
    }
  }

  @Test
  void aKeyOfAQueueDeletedAndMadeAgainNamesNothing() {
    QueueState q = shard.create("orders", Map.of());
    q.send(message("old"), false, shard.now);
    String key = page(q, null, null, null, shard.now).messages().get(0).key();
    shard.registry.delete("orders", shard.now);
    shard.advance(Limits.QUEUE_RECREATE_WAIT_MILLIS);
    QueueState again = shard.create("orders", Map.of());
    again.send(message("new"), false, shard.now);
    assertEquals(ErrorCode.MESSAGE_NOT_FOUND,
        assertThrows(SqsException.class, () -> byKey(again, key, shard.now)).code());
  }

  @Test
  void pagedModeCountsTheRowsHeldOnlyInTheDurableStore() {
    ShardFixture paged = ShardFixture.paged(ShardFixture.window(3), FakeBacklogStore.eager());
    QueueState q = paged.create("orders", Map.of());
    for (int i = 0; i < 10; i++) {
      q.send(message("m" + i), false, paged.now);
      paged.advance(1);
    }
    PeekMessages.Response r = page(q, null, null, null, paged.now);
    assertEquals(List.of("m0", "m1", "m2"), bodies(r));
    assertEquals(3, r.resident());
    assertEquals(7, r.durableOnly());
    assertEquals(10, q.approximateNumberOfMessages(paged.now));
  }

  @Test
  void aBinaryValueKeepsItsBytesExactly() {
    QueueState q = shard.create("orders", Map.of());
    byte[] bytes = {0, -1, 127, -128};
    q.send(message("m", Map.of("b", new MessageAttributeValue("Binary.raw", null, bytes))), false, shard.now);
    PeekedAttribute a = page(q, null, null, null, shard.now).messages().get(0).attributes().get("b");
    assertArrayEquals(bytes, a.binaryValue());
    assertEquals("Binary.raw", a.dataType());
  }
}
