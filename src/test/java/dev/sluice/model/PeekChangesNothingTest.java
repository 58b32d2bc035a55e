package dev.sluice.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.PeekMessages;
import dev.sluice.api.SqsException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;

/**
 * The peek changes nothing (design/console.md §2.5): {@link QueueTraceTest}'s random runs, with
 * peeks of both queues after every step (pages of every size, offset and preview length, and
 * messages by key, some of them gone since), trace exactly as the recorded runs do, so no answer,
 * count, change-log line, memory charge or timer differs. The peeks draw on a random of their own,
 * so the runs' steps are the recorded ones. Each peek is checked against the queue's counts too.
 */
class PeekChangesNothingTest extends QueueTraceTest {
  private static final int[] PREVIEWS = {0, 1, 2, 7, 2_048, 65_536};
  private final Random peeks = new Random(11);
  private final List<String> keys = new ArrayList<>();
  int pagesPeeked;
  int keysFound;
  int keysGone;

  @Override
  void betweenSteps(ShardFixture shard, QueueState q, QueueState dlq) {
    peek(shard, q);
    if (dlq != null) {
      peek(shard, dlq);
    }
  }

  @AfterEach
  void everyKindOfPeekRan() {
    assertTrue(pagesPeeked > 10_000 && keysFound > 1_000 && keysGone > 100,
        pagesPeeked + " pages, " + keysFound + " keys found, " + keysGone + " gone");
  }

  private void peek(ShardFixture shard, QueueState q) {
    // Everything at once: every browsable message is on the page, in the number the counts give.
    PeekMessages.Response all = q.peek(new PeekMessages.Request("url", 0, 50, 0, null), shard.now);
    long counted = q.approximateNumberOfMessages(shard.now) + q.approximateNumberOfMessagesNotVisible()
        + q.approximateNumberOfMessagesDelayed(shard.now);
    assertEquals(counted, all.resident() + all.durableOnly(), q.name());
    assertEquals(Math.min(50, all.resident()), all.messages().size(), q.name());
    pagesPeeked++;

    int offset = peeks.nextInt(4);
    int max = 1 + peeks.nextInt(50);
    PeekMessages.Response page = q.peek(
        new PeekMessages.Request("url", offset, max, PREVIEWS[peeks.nextInt(PREVIEWS.length)], null), shard.now);
    assertEquals(Math.max(0, Math.min(max, all.resident() - offset)), page.messages().size(), q.name());
    page.messages().forEach(m -> keys.add(m.key()));
    if (!keys.isEmpty()) {
      // Mostly a key just peeked (found), now and then one of earlier steps or runs (often gone).
      String key = keys.get(keys.size() - 1 - peeks.nextInt(Math.min(keys.size(), 1 + peeks.nextInt(200))));
      try {
        q.peek(new PeekMessages.Request("url", null, null, null, key), shard.now);
        keysFound++;
      } catch (SqsException e) {
        assertEquals(ErrorCode.MESSAGE_NOT_FOUND, e.code()); // gone, or a key of the other queue
        keysGone++;
      }
    }
  }
}
