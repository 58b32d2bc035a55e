package dev.sluice.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sluice.api.ReceiveMessage;
import dev.sluice.api.SqsException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Random runs of a paged FIFO queue (window 1..5, 1 ms buckets) against a shadow model, as
 * {@link PagedQueueRandomizedTest} does for standard queues: the durable store's events (a
 * submission commits out of order, fails for good, a page read's snapshot is taken, it is answered)
 * are drawn with the client's, and timers may fire late. The queue's DelaySeconds changes now and
 * then, which is retroactive for messages still delayed, those in the durable store only included.
 *
 * <p>Every step checks that nothing is delivered that the shadow says is delayed, in flight or gone,
 * that a group's messages come in order and never while an earlier one is in flight, the counts
 * (visible, in flight, delayed), the frontier invariant (I1), the window, and that no row is read
 * twice. A liveness step checks that once every write has committed, a receive (or a long poll once
 * pages are answered) gets something whenever a group's first message is visible within the
 * lookahead: the window's worth of messages never received, in sequence order. At the end every
 * acknowledged message not purged or lost is delivered, in order, and deleted. The queue's totals
 * never decrease and agree with the shadow's sends, deliveries and deletes of live messages.
 *
 * <p>Odd seeds run under durability commit (a resident send is PENDING until the fake commits it),
 * even ones relaxed, which also change the delay: under commit a pending message starts the delay
 * the queue had when it was sent, as it does in memory mode.
 */
class PagedFifoRandomizedTest {
  static final int SEEDS = 300;
  static final int STEPS = 400;
  static final String[] GROUPS = {"a", "b", "c", "d"};

  enum Fate { LIVE, DELETED, PURGED, LOST }

  /** What the test knows about one message it sent. */
  static final class Sent {
    final String body;
    final String group;
    final int order;
    final long sentAt;
    Message message;
    long visibleFrom;
    long hiddenUntil;
    String handle;
    Fate fate = Fate.LIVE;
    int deliveries;

    Sent(String body, String group, int order, long sentAt, long visibleFrom) {
      this.body = body;
      this.group = group;
      this.order = order;
      this.sentAt = sentAt;
      this.visibleFrom = visibleFrom;
    }

    boolean pending() {
      return message != null && message.state() == MessageState.PENDING;
    }

    boolean delayed(long now) {
      return fate == Fate.LIVE && deliveries == 0 && now < visibleFrom && !pending();
    }

    boolean inFlight(long now) {
      return fate == Fate.LIVE && deliveries > 0 && now < hiddenUntil;
    }

    boolean visible(long now) {
      return fate == Fate.LIVE && !delayed(now) && !inFlight(now) && !pending();
    }
  }

  @Test
  void aPagedFifoQueueKeepsEveryPromiseUnderRandomInterleavings() {
    for (int seed = 0; seed < SEEDS; seed++) {
      new Run(seed).run();
    }
  }

  static final class Run {
    final int seed;
    final Random random;
    final int window;
    final boolean commitMode;
    final FakeBacklogStore fake;
    final ShardFixture shard;
    final QueueState q;
    final long chargedBefore;
    final List<Sent> inOrder = new ArrayList<>();
    final Map<String, Sent> byBody = new HashMap<>();
    final Map<Message, Sent> byMessage = new HashMap<>();
    final List<String[]> handles = new ArrayList<>(); // {body, handle}
    final ArrayDeque<String> recent = new ArrayDeque<>();
    long delayMillis;
    /** The latest sent time that was visible at a delay change: sent then, a message is visible at once. */
    long releasedThrough = Long.MIN_VALUE;
    long deliveries;
    long deletes;
    final TotalsCheck totals;

    Run(int seed) {
      this.seed = seed;
      this.random = new Random(seed);
      this.window = 1 + random.nextInt(5);
      this.commitMode = seed % 2 == 1;
      this.fake = commitMode ? FakeBacklogStore.manualHoldingSends() : FakeBacklogStore.manual();
      this.shard = ShardFixture.paged(ShardFixture.window(window), fake);
      this.q = shard.create("random.fifo", Map.of("FifoQueue", "true", "ContentBasedDeduplication", "true"));
      this.chargedBefore = shard.budget.usedBytes();
      this.totals = new TotalsCheck(q);
    }

    void note(String what) {
      recent.addLast(shard.now % 1_000_000 + " " + what + " R=" + q.backlog().frontier());
      if (recent.size() > 25) {
        recent.removeFirst();
      }
    }

    String where(int step) {
      return "seed " + seed + " (W " + window + (commitMode ? ", commit" : "") + ") step " + step + ":\n  "
          + String.join("\n  ", recent) + "\n";
    }

    void run() {
      for (int step = 0; step < STEPS; step++) {
        int op = random.nextInt(100);
        note("op " + op + " uncommitted " + fake.uncommitted.size() + " reads " + fake.reads.size());
        if (op < 25) {
          send();
        } else if (op < 45) {
          receive(step, 1 + random.nextInt(10), random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(5));
        } else if (op < 55) {
          delete(step);
        } else if (op < 60) {
          shard.advance(random.nextInt(3_000));
        } else if (op < 63) {
          shard.now += random.nextInt(3_000); // timers late: nothing fires yet
        } else if (op < 65) {
          shard.index.fireDue(shard.now, 1 + random.nextInt(3));
        } else if (op < 67 && !commitMode) {
          changeDelay();
        } else if (op < 68) {
          purge();
        } else if (op < 82) {
          if (!fake.uncommitted.isEmpty()) {
            fake.commit(random.nextInt(fake.uncommitted.size()));
          }
        } else if (op < 84) {
          failASubmission();
        } else if (op < 87) {
          if (!fake.reads.isEmpty()) {
            fake.snapshot(random.nextInt(fake.reads.size()));
          }
        } else if (op < 95) {
          if (!fake.expiries.isEmpty() && random.nextBoolean()) {
            fake.answerExpiry(0);
          } else if (!fake.reads.isEmpty()) {
            fake.answer(random.nextInt(fake.reads.size()));
          }
        } else if (op < 97) {
          park(step);
        } else {
          liveness(step);
        }
        if (random.nextBoolean()) {
          q.maintain(shard.now); // the end of a shard call
        }
        check(step);
      }
      drain();
    }

    void send() {
      String group = GROUPS[random.nextInt(GROUPS.length)];
      String body = "m" + inOrder.size();
      long now = shard.now;
      Sent s = new Sent(body, group, inOrder.size(), now, now <= releasedThrough ? now : now + delayMillis);
      inOrder.add(s);
      byBody.put(body, s); // before the send: a parked receive may take it at once
      int before = fake.uncommitted.size();
      q.send(new NewMessage(body, null, null, null, null, group, "s", null), false, now);
      Message m = fake.uncommitted.get(before).stored;
      assertEquals(body, m.body(), "seed " + seed);
      s.message = m;
      byMessage.put(m, s);
      note("sent " + body + " in " + group + " " + m.state() + " at " + DeliveryPosition.of(m));
    }

    /** Retroactive: messages still delayed are due the new delay after they were sent, not before now. */
    void changeDelay() {
      long now = shard.now;
      int seconds = random.nextInt(3) == 0 ? 0 : 1 + random.nextInt(5);
      for (Sent s : inOrder) {
        if (s.delayed(now)) {
          s.visibleFrom = Math.max(now, s.sentAt + seconds * 1000L);
        }
      }
      releasedThrough = Math.max(releasedThrough, now - delayMillis);
      delayMillis = seconds * 1000L;
      q.setAttributes(Map.of("DelaySeconds", Integer.toString(seconds)), now);
      note("delay " + seconds);
    }

    void receive(int step, int max, int visibility) {
      List<ReceiveMessage.Message> got = q.receive(ShardFixture.spec(max, visibility), shard.now);
      delivered(step, got, visibility);
    }

    void park(int step) {
      int visibility = 1 + random.nextInt(5);
      q.park(new Waiter(ShardFixture.spec(1 + random.nextInt(3), visibility), () -> false,
          later -> delivered(step, later, visibility)), shard.now + 1 + random.nextInt(5_000));
    }

    void delivered(int step, List<ReceiveMessage.Message> got, int visibility) {
      long now = shard.now;
      Set<String> inThisReceive = new HashSet<>();
      for (ReceiveMessage.Message m : got) {
        Sent s = byBody.get(m.body());
        if (!s.visible(now)) {
          fail(where(step) + m.body() + " delivered while " + (s.fate != Fate.LIVE ? s.fate
              : s.delayed(now) ? "delayed" : s.pending() ? "pending" : "in flight"));
        }
        for (Sent earlier : inOrder.subList(0, s.order)) {
          if (earlier.group.equals(s.group) && earlier.fate == Fate.LIVE && !inThisReceive.contains(earlier.body)) {
            fail(where(step) + s.body + " delivered before " + earlier.body + " of group " + s.group
                + (earlier.inFlight(now) ? ", in flight" : ""));
          }
        }
        inThisReceive.add(s.body);
        s.deliveries++;
        deliveries++;
        s.hiddenUntil = now + visibility * 1000L;
        s.handle = m.receiptHandle();
        handles.add(new String[] {m.body(), m.receiptHandle()});
      }
    }

    void delete(int step) {
      if (handles.isEmpty()) {
        return;
      }
      String[] h = handles.get(random.nextInt(handles.size()));
      Sent s = byBody.get(h[0]);
      if (s.fate == Fate.PURGED || s.fate == Fate.LOST) {
        return;
      }
      Message resident = q.resident(s.message.key());
      boolean current = s.fate == Fate.LIVE && h[1].equals(s.handle) && resident != null
          && resident.state() == MessageState.IN_FLIGHT;
      Fate was = s.fate;
      if (current) {
        s.fate = Fate.DELETED; // before the delete: a parked receive may take the next message at once
      }
      try {
        q.delete(h[1], shard.now);
        assertTrue(current || was == Fate.DELETED, where(step) + "a stale FIFO handle deleted " + s.body);
        deletes += current ? 1 : 0; // deleting again removes nothing
      } catch (SqsException e) {
        s.fate = was;
        assertTrue(!current, where(step) + "a current handle failed to delete " + s.body + ": " + e.getMessage());
      }
    }

    void purge() {
      try {
        q.purge(shard.now);
      } catch (SqsException tooSoon) {
        return;
      }
      inOrder.forEach(s -> {
        if (s.fate == Fate.LIVE) {
          s.fate = Fate.PURGED;
        }
      });
      note("purged");
    }

    void failASubmission() {
      if (fake.uncommitted.isEmpty()) {
        return;
      }
      int i = random.nextInt(fake.uncommitted.size());
      Message m = fake.uncommitted.get(i).stored;
      if (m == null) {
        return;
      }
      boolean lost = m.state() == MessageState.PAGED_OUT || m.state() == MessageState.PENDING;
      fake.fail(i);
      Sent s = byMessage.get(m);
      if (lost && s.fate == Fate.LIVE) {
        s.fate = Fate.LOST;
        note("lost " + s.body);
      }
    }

    /**
     * With every write committed and every timer fired: if a group's first live message is visible
     * and within the lookahead (received messages, and the first W never received in sequence
     * order), a receive gets something, at once or by a long poll once pages are answered.
     */
    void liveness(int step) {
      fake.commitAll();
      shard.advance(0);
      long now = shard.now;
      Set<String> groupsSeen = new HashSet<>();
      int neverReceived = 0;
      boolean receivable = false;
      for (Sent s : inOrder) {
        if (s.fate != Fate.LIVE) {
          continue;
        }
        boolean inLookahead = s.deliveries > 0 || neverReceived++ < window;
        if (groupsSeen.add(s.group) && inLookahead && s.visible(now)) {
          receivable = true;
        }
      }
      if (!receivable) {
        return;
      }
      int visibility = 1 + random.nextInt(5);
      List<ReceiveMessage.Message> got = q.receive(ShardFixture.spec(10, visibility), now);
      delivered(step, got, visibility);
      if (!got.isEmpty()) {
        return;
      }
      long before = deliveries;
      q.park(new Waiter(ShardFixture.spec(10, visibility), () -> false, m -> delivered(step, m, visibility)),
          now + 20_000);
      for (int round = 0; round < 20 && deliveries == before; round++) {
        q.maintain(shard.now);
        fake.answerAll();
        fake.commitAll();
        shard.advance(0);
      }
      assertTrue(deliveries > before, where(step) + "a group's first message is visible, yet a long poll got nothing");
    }

    void check(int step) {
      long now = shard.now;
      long visible = 0;
      long inFlight = 0;
      long delayed = 0;
      DeliveryPosition frontier = q.backlog().frontier();
      for (Sent s : inOrder) {
        if (s.fate != Fate.LIVE) {
          continue;
        }
        visible += s.visible(now) ? 1 : 0;
        inFlight += s.inFlight(now) ? 1 : 0;
        delayed += s.delayed(now) ? 1 : 0;
        Message m = q.resident(s.message.key()) != null ? q.resident(s.message.key()) : s.message;
        int c = DeliveryPosition.of(m).compareTo(frontier);
        if (m.state() == MessageState.PAGED_OUT && c <= 0) {
          fail(where(step) + s.body + " is durable-only at or before the frontier (I1)");
        }
        if (m.inWindow && !m.rowLost && c > 0) {
          fail(where(step) + s.body + " is resident, never received and after the frontier (I1)");
        }
      }
      if (shard.index.nextDueAtMillis() > now) {
        String counts = q.approximateNumberOfMessages(now) + "/" + q.approximateNumberOfMessagesNotVisible() + "/"
            + q.approximateNumberOfMessagesDelayed(now);
        assertEquals(visible + "/" + inFlight + "/" + delayed, counts, where(step) + "counts (visible/in flight/delayed)");
      } else { // late timers: some messages the shadow sees visible are still delayed or in flight
        assertEquals(visible + inFlight + delayed, q.approximateNumberOfMessages(now)
            + q.approximateNumberOfMessagesNotVisible() + q.approximateNumberOfMessagesDelayed(now), where(step) + "counts");
      }
      assertEquals(0, q.backlog().operations().duplicateRows(), where(step) + "a row was read twice");
      assertEquals(0, q.backlog().operations().countResyncs(), where(step) + "counts were wrong");
      assertEquals(0, q.backlog().operations().shortReads(), where(step) + "a complete read came back short");
      assertTrue(q.backlog().inWindow() <= window, where(step) + "window overrun");
      shard.assertSlabSound(where(step));
      totals.check(where(step), inOrder.size(), deliveries, deletes); // every body differs: no duplicate
    }

    /** Everything commits, pages are answered, and the queue is drained with deletes, in order. */
    void drain() {
      fake.commitAll();
      shard.advance(60_000);
      for (int round = 0; round < 10_000; round++) {
        fake.commitAll();
        q.maintain(shard.now);
        fake.answerAll();
        List<ReceiveMessage.Message> got = q.receive(ShardFixture.spec(10, 30), shard.now);
        delivered(STEPS, got, 30);
        for (ReceiveMessage.Message m : got) {
          byBody.get(m.body()).fate = Fate.DELETED;
          q.delete(m.receiptHandle(), shard.now);
          deletes++;
        }
        if (got.isEmpty() && inOrder.stream().noneMatch(s -> s.fate == Fate.LIVE)) {
          break;
        }
        if (got.isEmpty()) {
          shard.advance(1_000);
        }
      }
      for (Sent s : inOrder) {
        assertTrue(s.fate != Fate.LIVE, "seed " + seed + ": " + s.body + " was never delivered: "
            + s.message.state() + " " + DeliveryPosition.of(s.message) + " R " + q.backlog().frontier() + " pagedOut "
            + q.backlog().counts().pagedOut() + "\n" + where(STEPS));
      }
      totals.check("seed " + seed + " drained: ", inOrder.size(), deliveries, deletes);
      shard.advance(6 * 60_000); // the deduplication entries expire, and their memory with them
      assertEquals("0/0/0/-1", q.approximateNumberOfMessages(shard.now) + "/" + q.approximateNumberOfMessagesNotVisible()
          + "/" + q.approximateNumberOfMessagesDelayed(shard.now) + "/" + q.oldestSentAtMillis(), "seed " + seed);
      assertEquals(List.of(), fake.rows(q.metadata().generation()), "seed " + seed + ": rows left behind");
      assertEquals(chargedBefore, shard.budget.usedBytes(), "seed " + seed + ": memory still charged");
      shard.assertSlabSound("seed " + seed + ": ");
      shard.deleteAllQueuesAndAssertSlabEmpty("seed " + seed + ": ");
    }
  }
}
