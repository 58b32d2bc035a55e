package dev.sluice.model;

import static dev.sluice.model.ShardFixture.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sluice.api.ReceiveMessage;
import dev.sluice.api.SqsException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random interleavings of send, receive, delete and visibility expiry over several groups, checked
 * against the FIFO guarantees (some receives wait as parked long polls): a group's messages are delivered in order, a group never has
 * messages in flight from two receives at once, a deleted message never comes back, and every
 * message sent is deleted exactly once in the end. Duplicate sends within the window never add a
 * message. The queue's totals (arrived, received, deleted) never decrease and agree with the
 * test's own counts: distinct message ids sent, messages handed out, deletes that removed one
 * (design/console.md §2.4). After every step the shard's content slab holds exactly the resident
 * messages' contents, and nothing once the queue is deleted (design/tails.md §2.6). Each seed is
 * reproducible.
 */
class FifoRandomizedTest {
  static final int SEEDS = 300;
  static final int STEPS = 400;
  static final String[] GROUPS = {"a", "b", "c", "d", "e"};

  /** What the test knows about one message it sent. */
  static final class Sent {
    final String body;
    final String group;
    final int indexInGroup;
    final long sentAt;
    int lastReceive = -1;
    long visibleAt;
    String currentHandle;
    boolean deleted;

    Sent(String body, String group, int indexInGroup, long sentAt) {
      this.body = body;
      this.group = group;
      this.indexInGroup = indexInGroup;
      this.sentAt = sentAt;
    }

    boolean inFlight(long now) {
      return !deleted && lastReceive >= 0 && now < visibleAt;
    }
  }

  /** What the test counted of the queue's totals. */
  static final class Reference {
    /** A duplicate answers with its original's id, so these are the messages that arrived. */
    final Set<String> messageIds = new HashSet<>();
    long received;
    long deleted;
  }

  /**
   * In memory mode, and paged with a window of 1 to 5 and a store that commits and reads at once:
   * most messages are then read back in pages, and the guarantees are the same.
   */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void fifoGuaranteesHoldUnderRandomInterleavings(boolean paged) {
    for (int seed = 0; seed < SEEDS; seed++) {
      run(seed, paged);
    }
  }

  private void run(int seed, boolean paged) {
    Random random = new Random(seed);
    ShardFixture shard = paged ? ShardFixture.paged(ShardFixture.window(1 + seed % 5), FakeBacklogStore.eager())
        : new ShardFixture();
    QueueState q = shard.create("random.fifo", Map.of("FifoQueue", "true", "ContentBasedDeduplication", "true"));
    Map<String, Sent> byBody = new HashMap<>();
    Map<String, List<Sent>> byGroup = new HashMap<>();
    List<String[]> handles = new ArrayList<>(); // {body, handle}
    int receives = 0;
    int sent = 0;
    Reference ref = new Reference();
    TotalsCheck totals = new TotalsCheck(q);
    for (int step = 0; step < STEPS; step++) {
      int op = random.nextInt(100);
      if (op < 35) {
        String group = GROUPS[random.nextInt(GROUPS.length)];
        String body = "m" + sent++;
        List<Sent> groupList = byGroup.computeIfAbsent(group, g -> new ArrayList<>());
        Sent s = new Sent(body, group, groupList.size(), shard.now);
        groupList.add(s);
        byBody.put(body, s); // before the send: a parked receive may take it at once
        ref.messageIds.add(q.send(new NewMessage(body, null, null, null, null, group, "s", null), false, shard.now)
            .messageId());
      } else if (op < 40 && !byBody.isEmpty()) {
        // A duplicate of a recent send (well within the five-minute window) adds nothing.
        Sent s = byBody.get("m" + (sent - 1 - random.nextInt(Math.min(sent, 5))));
        if (shard.now - s.sentAt < 60_000) {
          int before = total(q, shard.now);
          ref.messageIds.add(q.send(new NewMessage(s.body, null, null, null, null, s.group, "s", null), false,
              shard.now).messageId());
          if (!s.deleted) {
            assertEquals(before, total(q, shard.now), "seed " + seed + ": a duplicate was enqueued");
          }
        }
      } else if (op < 70) {
        int receiveId = receives++;
        int visibility = 1 + random.nextInt(5);
        ReceiveSpec spec = spec(1 + random.nextInt(10), visibility);
        List<ReceiveMessage.Message> got = q.receive(spec, shard.now);
        if (got.isEmpty() && random.nextBoolean()) {
          // A long poll: parked, completed later by a send, a delete or an expiry.
          q.park(new Waiter(spec, () -> false, later -> delivered(seed, receiveId, visibility, later, byBody,
              byGroup, handles, ref, shard.now)), shard.now + 1000 + random.nextInt(4000));
        } else {
          delivered(seed, receiveId, visibility, got, byBody, byGroup, handles, ref, shard.now);
        }
      } else if (op < 90 && !handles.isEmpty()) {
        String[] h = handles.get(random.nextInt(handles.size()));
        Sent s = byBody.get(h[0]);
        boolean shouldWork = s.deleted || (h[1].equals(s.currentHandle) && s.inFlight(shard.now));
        boolean wasDeleted = s.deleted;
        s.deleted = true; // before the delete: a parked receive may take the next message at once
        try {
          q.delete(h[1], shard.now);
          assertTrue(shouldWork, "seed " + seed + ": a stale FIFO handle deleted " + s.body);
          ref.deleted += wasDeleted ? 0 : 1; // deleting again removes nothing
        } catch (SqsException e) {
          s.deleted = wasDeleted;
          assertTrue(!shouldWork, "seed " + seed + ": a current handle failed to delete " + s.body);
        }
      } else {
        shard.advance(random.nextInt(3000));
      }
      shard.assertSlabSound("seed " + seed + " step " + step + ": ");
      totals.check("seed " + seed + " step " + step + ": ", ref.messageIds.size(), ref.received, ref.deleted);
    }
    // Drain: everything not deleted must still be there, exactly once.
    shard.advance(10_000);
    for (int round = 0; round < 10_000 && total(q, shard.now) > 0; round++) {
      int receiveId = receives++;
      List<ReceiveMessage.Message> got = q.receive(spec(10, 30), shard.now);
      checkReceive(seed, receiveId, got, byBody, byGroup, shard.now);
      ref.received += got.size();
      for (ReceiveMessage.Message m : got) {
        Sent s = byBody.get(m.body());
        s.deleted = true;
        s.lastReceive = receiveId;
        q.delete(m.receiptHandle(), shard.now);
        ref.deleted++;
      }
    }
    totals.check("seed " + seed + " drained: ", ref.messageIds.size(), ref.received, ref.deleted);
    assertEquals(ref.messageIds.size(), ref.deleted, "seed " + seed + ": every message that arrived was deleted");
    Set<String> notDeleted = new HashSet<>();
    byBody.values().forEach(s -> {
      if (!s.deleted) {
        notDeleted.add(s.body);
      }
    });
    assertEquals(Set.of(), notDeleted, "seed " + seed + ": messages lost");
    assertEquals(0, total(q, shard.now), "seed " + seed);
    shard.assertBacklogsSound();
    shard.assertSlabSound("seed " + seed + ": ");
    shard.deleteAllQueuesAndAssertSlabEmpty("seed " + seed + ": ");
  }

  private static void delivered(
      int seed, int receiveId, int visibility, List<ReceiveMessage.Message> got, Map<String, Sent> byBody,
      Map<String, List<Sent>> byGroup, List<String[]> handles, Reference ref, long now) {
    checkReceive(seed, receiveId, got, byBody, byGroup, now);
    ref.received += got.size();
    for (ReceiveMessage.Message m : got) {
      Sent s = byBody.get(m.body());
      s.lastReceive = receiveId;
      s.visibleAt = now + visibility * 1000L;
      s.currentHandle = m.receiptHandle();
      handles.add(new String[] {m.body(), m.receiptHandle()});
    }
  }

  private static int total(QueueState q, long now) {
    return q.approximateNumberOfMessages(now) + q.approximateNumberOfMessagesNotVisible()
        + q.approximateNumberOfMessagesDelayed(now);
  }

  private static void checkReceive(
      int seed, int receiveId, List<ReceiveMessage.Message> got, Map<String, Sent> byBody,
      Map<String, List<Sent>> byGroup, long now) {
    Set<String> inThisReceive = new HashSet<>();
    for (ReceiveMessage.Message m : got) {
      Sent s = byBody.get(m.body());
      if (s.deleted) {
        fail("seed " + seed + ": deleted message " + s.body + " delivered again");
      }
      for (Sent other : byGroup.get(s.group)) {
        if (other == s || other.deleted) {
          continue;
        }
        if (other.indexInGroup < s.indexInGroup && !inThisReceive.contains(other.body)) {
          fail("seed " + seed + ": " + s.body + " delivered before earlier " + other.body + " of group " + s.group);
        }
        if (other.inFlight(now) && other.lastReceive != receiveId) {
          fail("seed " + seed + ": group " + s.group + " has " + other.body + " in flight while " + s.body
              + " is delivered");
        }
      }
      inThisReceive.add(s.body);
    }
  }
}
