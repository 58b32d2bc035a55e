package dev.sluice.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sluice.api.ReceiveMessage;
import dev.sluice.api.SqsException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random runs of a paged standard queue (window 1..5, 1 ms buckets) against a shadow model: a map
 * from each acknowledged message to what a client may expect of it (delayed until, visible, in
 * flight until, deleted, purged, lost), updated from the queue's answers and the clock (design page,
 * "PagedQueueRandomizedTest"). Besides the client's operations, the durable store's events are drawn
 * at random too: a submission commits (out of order across messages), fails for good, a page read's
 * snapshot is taken, or it is answered. Every step checks the counts, that nothing is delivered
 * that the shadow says is hidden or gone, the frontier invariant (I1), and that no row is read
 * twice, and that the memory budget is charged for exactly the resident messages. At the end every
 * acknowledged message not purged or lost is delivered and deleted once, and nothing is charged.
 * The queue's totals never decrease and agree with the shadow's counts: every send arrived (a lost
 * one too: the queue took it), every delivery was received, every delete of a live message deleted.
 *
 * <p>Odd seeds run under durability commit (a send is PENDING until the fake commits it), even ones
 * relaxed. Timers may fire late: the clock moves without firing them, and the client and the end of
 * a shard call (maintain) run before they fire, a few at a time. A liveness step checks that when
 * the shadow has visible messages and every write has committed, a receive, or a long poll once the
 * pages asked for are answered, gets something.
 *
 * <p>Not covered here: retention of durable-only rows, dead-letter queues and move tasks (plan
 * step 5); FIFO queues are {@link PagedFifoRandomizedTest}'s.
 */
class PagedQueueRandomizedTest {
  static final int SEEDS = 300;
  static final int STEPS = 400;

  enum Fate { LIVE, DELETED, PURGED, LOST }

  /** What the test knows about one message it sent. */
  static final class Sent {
    final String body;
    Message message;
    final long visibleFrom;
    long hiddenUntil;
    String handle;
    Fate fate = Fate.LIVE;
    int deliveries;

    Sent(String body, long visibleFrom) {
      this.body = body;
      this.visibleFrom = visibleFrom;
    }

    /** Durability commit: not acknowledged, nor counted, until its write commits (if resident). */
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
  void aPagedStandardQueueKeepsEveryPromiseUnderRandomInterleavings() {
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
    /** What the budget holds with no message: the test checks the charge of messages above it. */
    final long chargedBefore;
    final ShardFixture shard;
    final QueueState q;
    final Map<String, Sent> byBody = new HashMap<>();
    final Map<Message, Sent> byMessage = new HashMap<>();
    final List<String[]> handles = new ArrayList<>(); // {body, handle}
    int sent;
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
      this.q = shard.create("random", Map.of());
      this.chargedBefore = shard.budget.usedBytes();
      this.totals = new TotalsCheck(q);
    }

    /** The latest operations, for a failure's message. */
    final java.util.ArrayDeque<String> recent = new java.util.ArrayDeque<>();

    void note(String what) {
      recent.addLast(shard.now % 1_000_000 + " " + what + " R=" + q.backlog().frontier());
      if (recent.size() > 25) {
        recent.removeFirst();
      }
    }

    String where(int step) {
      return "seed " + seed + " (W " + window + (commitMode ? ", commit" : "") + ") step " + step + ": " + String.join("\n  ", recent) + "\n";
    }

    void run() {
      for (int step = 0; step < STEPS; step++) {
        int op = random.nextInt(100);
        note("op " + op + " uncommitted " + fake.uncommitted.size() + " reads " + fake.reads.size());
        if (op < 22) {
          send();
        } else if (op < 27) {
          for (int i = random.nextInt(4); i >= 0; i--) {
            send();
          }
        } else if (op < 45) {
          receive(step, 1 + random.nextInt(10), random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(5));
        } else if (op < 55) {
          delete(step);
        } else if (op < 60) {
          changeVisibility();
        } else if (op < 65) {
          shard.advance(random.nextInt(3_000));
        } else if (op < 68) {
          shard.now += random.nextInt(3_000); // timers late: nothing fires yet
        } else if (op < 70) {
          shard.index.fireDue(shard.now, 1 + random.nextInt(3)); // a few of the overdue ones
        } else if (op < 71) {
          purge();
        } else if (op < 85) {
          if (!fake.uncommitted.isEmpty()) {
            fake.commit(random.nextInt(fake.uncommitted.size()));
          }
        } else if (op < 87) {
          failASubmission();
        } else if (op < 90) {
          if (!fake.reads.isEmpty()) {
            fake.snapshot(random.nextInt(fake.reads.size()));
          }
        } else if (op < 97) {
          if (!fake.expiries.isEmpty() && random.nextBoolean()) {
            fake.answerExpiry(0);
          } else if (!fake.reads.isEmpty()) {
            int i = random.nextInt(fake.reads.size());
            note("answer " + fake.reads.get(i).request + " snapshot " + (fake.reads.get(i).snapshot == null ? null
                : fake.reads.get(i).snapshot.rows().stream().map(RestoredMessage::body).toList()));
            fake.answer(i);
          }
        } else if (op < 98) {
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
      String body = "m" + sent++;
      int pick = random.nextInt(10);
      Integer delay = pick < 6 ? null : pick < 9 ? 1 + random.nextInt(5) : 31 + random.nextInt(20);
      long now = shard.now;
      Sent s = new Sent(body, now + (delay == null ? 0 : delay * 1000L));
      byBody.put(body, s); // before the send: a parked receive may take it at once
      int before = fake.uncommitted.size();
      q.send(ShardFixture.message(body, delay), false, now);
      Message m = fake.uncommitted.get(before).stored;
      assertEquals(body, m.body(), "seed " + seed);
      s.message = m;
      byMessage.put(m, s);
      note("sent " + body + " delay " + delay + " " + m.state() + " at " + DeliveryPosition.of(m));
    }

    void receive(int step, int max, int visibility) {
      long now = shard.now;
      long visibleBefore = byBody.values().stream().filter(s -> s.visible(now)).count();
      List<ReceiveMessage.Message> got = q.receive(ShardFixture.spec(max, visibility), now);
      delivered(step, got, visibility);
      if (got.isEmpty() && visibleBefore > 0) {
        // Paging may leave a receive short, but never of a resident visible message.
        assertEquals(q.backlog().counts().due(), q.approximateNumberOfMessages(shard.now),
            where(step) + "an empty receive left resident messages visible");
      }
    }

    /**
     * With every write committed and every timer fired, a visible message must reach a client: at
     * once, or by a long poll once the pages the queue asks for are answered.
     */
    void liveness(int step) {
      fake.commitAll();
      shard.advance(0);
      long now = shard.now;
      long visible = byBody.values().stream().filter(s -> s.visible(now)).count();
      if (visible == 0) {
        return;
      }
      int visibility = 1 + random.nextInt(5);
      List<ReceiveMessage.Message> got = q.receive(ShardFixture.spec(10, visibility), now);
      delivered(step, got, visibility);
      if (!got.isEmpty()) {
        return;
      }
      // Waiters parked before this one are served first: any delivery is progress.
      long before = deliveries;
      q.park(new Waiter(ShardFixture.spec(10, visibility), () -> false, m -> delivered(step, m, visibility)),
          now + 20_000);
      for (int round = 0; round < 20 && deliveries == before; round++) {
        q.maintain(shard.now);
        fake.answerAll();
        fake.commitAll();
        shard.advance(0);
      }
      assertTrue(deliveries > before, where(step) + visible + " visible (due "
          + q.backlog().counts().due() + "), yet a long poll got nothing: " + byBody.values().stream()
          .filter(s -> s.visible(shard.now)).map(s -> s.body + " " + s.message.state() + " " + (q.resident(
          s.message.key()) == null ? null : q.resident(s.message.key()).state()) + " from " + s.visibleFrom).toList());
    }

    void park(int step) {
      int visibility = 1 + random.nextInt(5);
      ReceiveSpec spec = ShardFixture.spec(1 + random.nextInt(3), visibility);
      q.park(new Waiter(spec, () -> false, later -> delivered(step, later, visibility)),
          shard.now + 1 + random.nextInt(5_000));
    }

    void delivered(int step, List<ReceiveMessage.Message> got, int visibility) {
      long now = shard.now;
      for (ReceiveMessage.Message m : got) {
        Sent s = byBody.get(m.body());
        if (!s.visible(now)) {
          fail(where(step) + m.body() + " delivered while " + (s.fate != Fate.LIVE ? s.fate
              : s.delayed(now) ? "delayed" : "in flight"));
        }
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
      boolean wasLive = s.fate == Fate.LIVE;
      q.delete(h[1], shard.now); // any handle of a live message deletes it on a standard queue
      if (wasLive) {
        s.fate = Fate.DELETED;
        deletes++;
      }
      assertEquals(null, q.resident(s.message.key()), where(step) + "a deleted message stayed");
    }

    void changeVisibility() {
      if (handles.isEmpty()) {
        return;
      }
      String[] h = handles.get(random.nextInt(handles.size()));
      Sent s = byBody.get(h[0]);
      int seconds = random.nextInt(3) == 0 ? 0 : 1 + random.nextInt(5);
      long hiddenUntil = s.hiddenUntil;
      Message resident = q.resident(s.message.key());
      // In flight as the queue sees it: its visibility timer may be late.
      if (s.fate == Fate.LIVE && resident != null && resident.state() == MessageState.IN_FLIGHT) {
        s.hiddenUntil = shard.now + seconds * 1000L; // before: a waiter may take it within the call
      }
      try {
        q.changeVisibility(h[1], seconds, shard.now);
      } catch (SqsException gone) {
        s.hiddenUntil = hiddenUntil;
        assertTrue(s.fate != Fate.LIVE, "seed " + seed + ": visibility change refused for a live message");
      }
    }

    void purge() {
      try {
        q.purge(shard.now);
      } catch (SqsException tooSoon) {
        return;
      }
      byBody.values().forEach(s -> {
        if (s.fate == Fate.LIVE) {
          s.fate = Fate.PURGED;
        }
      });
    }

    /** A write fails for good: a spilled message's send is lost, as any write-behind change may be. */
    void failASubmission() {
      if (fake.uncommitted.isEmpty()) {
        return;
      }
      int i = random.nextInt(fake.uncommitted.size());
      Message m = fake.uncommitted.get(i).stored;
      if (m == null) {
        return; // only inserts fail here: a lost delete or change of a resident row changes nothing seen
      }
      // A spilled send, or under durability commit a pending one: its send was never acknowledged.
      boolean lost = m.state() == MessageState.PAGED_OUT || m.state() == MessageState.PENDING;
      fake.fail(i);
      Sent s = byMessage.get(m);
      if (lost && s.fate == Fate.LIVE) {
        s.fate = Fate.LOST;
      }
    }

    void check(int step) {
      long now = shard.now;
      long visible = 0;
      long inFlight = 0;
      long delayed = 0;
      long oldest = Long.MAX_VALUE;
      DeliveryPosition frontier = q.backlog().frontier();
      for (Sent s : byBody.values()) {
        if (s.fate != Fate.LIVE) {
          continue;
        }
        visible += s.visible(now) ? 1 : 0;
        inFlight += s.inFlight(now) ? 1 : 0;
        delayed += s.delayed(now) ? 1 : 0;
        oldest = Math.min(oldest, s.message.sentAtMillis());
        Message m = q.resident(s.message.key()) != null ? q.resident(s.message.key()) : s.message;
        int c = DeliveryPosition.of(m).compareTo(frontier);
        if (m.state() == MessageState.PAGED_OUT && c <= 0) {
          fail(where(step) + s.body + " is durable-only at or before the frontier (I1): " + DeliveryPosition.of(m)
              + " row " + fake.row(q.metadata().generation(), m.key()) + " written " + m.rowWritten);
        }
        boolean extra = m.state() == MessageState.DELAYED
            || m.state() == MessageState.PENDING && m.firstVisibleAtMillis() > m.sentAtMillis;
        if (m.inWindow && !extra && !m.rowLost && c > 0) {
          fail(where(step) + s.body + " is resident, never received and after the frontier (I1)");
        }
      }
      if (shard.index.nextDueAtMillis() > now) {
        String counts = q.approximateNumberOfMessages(shard.now) + "/" + q.approximateNumberOfMessagesNotVisible() + "/"
            + q.approximateNumberOfMessagesDelayed(shard.now);
        assertEquals(visible + "/" + inFlight + "/" + delayed, counts, where(step) + "counts");
      } else { // late timers: some messages the shadow sees visible are still delayed or in flight
        assertEquals(visible + inFlight + delayed, q.approximateNumberOfMessages(shard.now)
            + q.approximateNumberOfMessagesNotVisible() + q.approximateNumberOfMessagesDelayed(shard.now), where(step) + "counts");
      }
      long[] held = {0};
      q.forEachResident(m -> held[0] += m.heldBytes);
      assertEquals(held[0], shard.budget.usedBytes() - chargedBefore, where(step) + "memory charged");
      shard.assertSlabSound(where(step));
      if (fake.expiriesRun == 0 && !q.backlog().counts().oldestStale()) {
        assertEquals(oldest == Long.MAX_VALUE ? -1 : oldest, q.oldestSentAtMillis(), where(step) + "oldest");
      } else if (oldest != Long.MAX_VALUE) {
        // Stale, it is never younger; measured again, it may miss a delayed row older than the first
        // durable-only one by up to its delay (ExpirySql), 50 s here.
        assertTrue(q.oldestSentAtMillis() <= oldest + 50_000, where(step) + "oldest younger than any delay explains");
      }
      assertEquals(0, q.backlog().operations().duplicateRows(), where(step) + "a row was read twice");
      assertEquals(0, q.backlog().operations().countResyncs(), where(step) + "counts were wrong");
      assertEquals(0, q.backlog().operations().shortReads(), where(step) + "a complete read came back short");
      // W at most for sends and extras, and pages fill the head (the rest) up to W: see ResidentRegion
      assertTrue(q.backlog().inWindow() <= 2 * window, where(step) + "window overrun");
      totals.check(where(step), sent, deliveries, deletes);
    }

    /** Everything commits, pages are answered, and the queue is drained with deletes. */
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
        if (got.isEmpty() && fake.reads.isEmpty() && q.backlog().counts().pagedOut() == 0
            && byBody.values().stream().noneMatch(s -> s.fate == Fate.LIVE)) {
          break;
        }
        if (got.isEmpty()) {
          shard.advance(1_000);
        }
      }
      fake.commitAll();
      for (Sent s : byBody.values()) {
        Message m = s.message;
        assertTrue(s.fate != Fate.LIVE, "seed " + seed + ": " + s.body + " was never delivered: " + m.state() + " "
            + DeliveryPosition.of(m) + " resident " + q.resident(m.key()) + " row " + (fake.row(q.metadata().generation(),
            m.key()) != null) + " R " + q.backlog().frontier() + " pagedOut " + q.backlog().counts().pagedOut() + " written "
            + m.rowWritten + " lost " + m.rowLost + " deliveries " + s.deliveries + "\n" + where(STEPS));
      }
      assertEquals("0/0/0/-1", q.approximateNumberOfMessages(shard.now) + "/" + q.approximateNumberOfMessagesNotVisible()
          + "/" + q.approximateNumberOfMessagesDelayed(shard.now) + "/" + q.oldestSentAtMillis(), "seed " + seed);
      assertEquals(List.of(), fake.rows(q.metadata().generation()), "seed " + seed + ": rows left behind");
      totals.check("seed " + seed + " drained: ", sent, deliveries, deletes);
      assertEquals(0, q.backlog().operations().duplicateRows(), "seed " + seed);
      assertEquals(0, q.backlog().operations().countResyncs(), "seed " + seed);
      assertEquals(chargedBefore, shard.budget.usedBytes(), "seed " + seed + ": memory still charged");
      shard.assertSlabSound("seed " + seed + ": ");
      shard.deleteAllQueuesAndAssertSlabEmpty("seed " + seed + ": ");
    }
  }
}
