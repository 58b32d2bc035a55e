package dev.sluice.model;

import static dev.sluice.model.ShardFixture.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sluice.api.SqsException;
import dev.sluice.model.GroupOrder.MessageGroup;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * White-box fuzzing of a FIFO queue and its FIFO dead-letter queue: random sends, receives (with
 * and without attempt ids, visibility 0 included), deletes, visibility changes, delay changes,
 * purges, move tasks and re-creation of the dead-letter queue, with the internal structures checked
 * after every step (counts, group lists in sequence order, the available-group map) and, at the
 * end, no memory charge and no timer left behind. Reads private fields on purpose: it guards the
 * invariants the other tests can only see through their effects.
 */
class FifoStructureFuzzTest {
  static Object get(Object o, Class<?> c, String f) throws Exception {
    Field field = c.getDeclaredField(f);
    field.setAccessible(true);
    return field.get(o);
  }

  @SuppressWarnings("unchecked")
  static void check(QueueState q, String ctx) throws Exception {
    MessageStore store = (MessageStore) get(q, QueueState.class, "store");
    Visibility visibility = (Visibility) get(store, MessageStore.class, "visibility");
    GroupOrder order = (GroupOrder) get(visibility, Visibility.class, "order");
    MessageIndex byKey = (MessageIndex) get(store, MessageStore.class, "byKey");
    int inflight = (int) get(visibility, Visibility.class, "inflightCount");
    int delayed = (int) get(visibility, Visibility.class, "delayedCount");
    Map<String, MessageGroup> groups = (Map<String, MessageGroup>) get(order, GroupOrder.class, "groups");
    TreeMap<Long, MessageGroup> available = (TreeMap<Long, MessageGroup>) get(order, GroupOrder.class, "available");
    int readyCount = (int) get(order, GroupOrder.class, "readyCount");
    int[] c = new int[3];
    byKey.forEach(m -> {
      switch (m.state()) {
        case READY -> c[0]++;
        case IN_FLIGHT -> c[1]++;
        case DELAYED -> c[2]++;
        default -> fail(ctx + " GONE in byKey");
      }
    });
    assertEquals(c[0], readyCount, ctx + " readyCount");
    assertEquals(c[1], inflight, ctx + " inflight");
    assertEquals(c[2], delayed, ctx + " delayed");
    int inGroups = 0;
    for (MessageGroup g : groups.values()) {
      assertFalse(g.messages.isEmpty(), ctx + " empty group");
      long lastSeq = -1;
      for (Message m = g.messages.first(); m != null; m = m.next) {
        inGroups++;
        assertTrue(m.state() != MessageState.GONE, ctx + " state in group " + m.state());
        assertSame(m, byKey.get(m.key), ctx + " group msg not in byKey");
        if (m.sequenceNumber <= lastSeq) {
          fail(ctx + " group " + g.id + " out of sequence order at " + m.body());
        }
        lastSeq = m.sequenceNumber;
      }
      Message head = g.messages.first();
      if (head.state() == MessageState.READY) {
        assertEquals(head.readyStamp(), g.availableAs, ctx + " head ready but not available");
        assertSame(g, available.get(head.readyStamp()), ctx + " available map");
      } else {
        assertEquals(MessageGroup.NOT_AVAILABLE, g.availableAs, ctx + " locked group available");
      }
    }
    assertEquals(c[0] + c[1] + c[2], inGroups, ctx + " messages in groups");
    for (Map.Entry<Long, MessageGroup> e : available.entrySet()) {
      assertSame(e.getValue(), groups.get(e.getValue().id), ctx + " available group not in groups");
      assertEquals(e.getKey(), e.getValue().availableAs, ctx + " stale available key");
    }
  }

  @Test
  void fuzz() throws Exception {
    for (long seed = 0; seed < 500; seed++) {
      run(seed);
    }
  }

  void run(long seed) throws Exception {
    Random r = new Random(seed);
    ShardFixture shard = new ShardFixture();
    QueueState dlq = shard.create("dlq.fifo", Map.of("FifoQueue", "true", "ContentBasedDeduplication", "true"));
    QueueState q = shard.create("src.fifo", Map.of("FifoQueue", "true", "ContentBasedDeduplication", "true",
        "MessageRetentionPeriod", "60",
        "RedrivePolicy", "{\"deadLetterTargetArn\":\"" + dlq.metadata().arn() + "\",\"maxReceiveCount\":3}"));
    List<String> handles = new ArrayList<>();
    List<String> dlqHandles = new ArrayList<>();
    int n = 0;
    for (int step = 0; step < 400; step++) {
      String ctx = "seed " + seed + " step " + step;
      int op = r.nextInt(15);
      try {
        switch (op) {
          case 0, 1, 2 -> q.send(new NewMessage("b" + (n++), null, null, null, null, "g" + r.nextInt(4), "s", null), false, shard.now);
          case 3, 4 -> { for (var m : q.receive(new ReceiveSpec(1 + r.nextInt(10), r.nextInt(3) == 0 ? 0 : 1 + r.nextInt(5), AttributeSelection.of(List.of("All"), null, null), r.nextBoolean() ? "a" + r.nextInt(3) : null), shard.now)) handles.add(m.receiptHandle()); }
          case 5 -> { if (!handles.isEmpty()) q.delete(handles.get(r.nextInt(handles.size())), shard.now); }
          case 6 -> { if (!handles.isEmpty()) q.changeVisibility(handles.get(r.nextInt(handles.size())), r.nextInt(3) == 0 ? 0 : r.nextInt(6), shard.now); }
          case 7, 8 -> shard.advance(r.nextInt(4000));
          case 9 -> { if (r.nextInt(10) == 0) q.setAttributes(Map.of("DelaySeconds", Integer.toString(r.nextInt(3))), shard.now); }
          case 10 -> { if (r.nextInt(20) == 0) q.purge(shard.now); }
          case 11 -> { if (r.nextInt(5) == 0) { try { dlq.startMoveTask(r.nextBoolean() ? null : q.metadata().arn(), r.nextBoolean() ? null : 1 + r.nextInt(3), shard.mover, shard.now); } catch (SqsException ignore) {} } }
          case 12 -> { for (var m : dlq.receive(spec(1 + r.nextInt(3), r.nextBoolean() ? 0 : 2), shard.now)) dlqHandles.add(m.receiptHandle()); }
          case 14 -> { if (r.nextInt(8) == 0) { if (shard.registry.find("dlq.fifo") != null) shard.registry.delete("dlq.fifo", shard.now); else { try { dlq = shard.create("dlq.fifo", Map.of("FifoQueue", "true", "ContentBasedDeduplication", "true")); dlqHandles.clear(); } catch (SqsException e) {} } } }
          case 13 -> { if (!dlqHandles.isEmpty()) dlq.changeVisibility(dlqHandles.get(r.nextInt(dlqHandles.size())), 0, shard.now); }
        }
      } catch (SqsException expected) {
      }
      check(q, ctx + " src op " + op);
      check(dlq, ctx + " dlq op " + op);
    }
    // drain
    shard.advance(400_000);
    check(q, "drain");
    check(dlq, "drain");
    shard.registry.delete("src.fifo", shard.now);
    if (shard.registry.find("dlq.fifo") != null) {
      shard.registry.delete("dlq.fifo", shard.now);
    }
    shard.advance(10);
    assertEquals(0, shard.budget.usedBytes(), "seed " + seed + " budget leak");
    assertEquals(0, shard.index.size(), "seed " + seed + " timers left");
  }
}
