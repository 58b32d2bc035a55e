package dev.sluice.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.api.MessageAttributeValue;
import dev.sluice.api.ReceiveMessage;
import dev.sluice.api.SendMessage;
import dev.sluice.api.SqsException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Random runs of every queue operation, on a standard and a FIFO queue with their dead-letter
 * queues: sends (single and batched, delayed, duplicated, oversized), receives (visibility 0,
 * attempt ids, parked long polls), deletes and visibility changes with current, stale and unknown
 * handles, delay and retention changes, purges, move tasks, dead-letter queues deleted and created
 * again, a small memory budget and in-flight cap, and under durability commit pending sends
 * committed or dropped. Everything a client or the durable store could see goes into one trace:
 * each answer or error, the counts, the change log, the memory charged and the timers left. Message
 * ids and receipt handles are random, so they are traced by order of first appearance.
 *
 * <p>{@link #TRACE_DIGEST} was recorded from the three-level class hierarchy that the composed
 * {@link QueueState} replaced, then once more when a retried FIFO receive began to log the
 * visibility it starts again (the only lines that changed), and again when a deduplication id on a
 * standard queue took AWS's reason text (only those error lines changed), and when a queue's saved
 * row came to be logged after the messages a FIFO delay change rescheduled rather than before (the
 * row keeps the delay rule), and when a FIFO delay change stopped rescheduling messages whose delay
 * had ended with their timer late, and a FIFO message sent in the millisecond its queue's delay
 * changed from 0 came to be visible at once (see FifoDelayRule), and when a message came to be
 * charged its content's record in the shard's slab plus the overhead (design/tails.md §2.6: the
 * budget figures changed, a send of a 40,000-byte run near the limit is refused, and the slab's
 * compactor counts among the timers while it is due; nothing else changed): a change of behaviour
 * anywhere in the model changes the digest. When
 * it does, the full trace is written to target/queue-trace.txt, so that two versions can be diffed
 * (a change made on purpose records the new digest).
 */
class QueueTraceTest {
  static final String TRACE_DIGEST = "3c0d42b22fcc3e481abb3f666fa1fe58edb99ce0b8459391eed4ea1e5a1d3ba4";
  static final int SEEDS = 60;
  static final int STEPS = 300;

  static final Pattern UUID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

  final StringBuilder trace = new StringBuilder();
  final Map<String, String> names = new HashMap<>();

  @Test
  void everyRunTracesAsTheRecordedOne() throws Exception {
    for (int seed = 0; seed < SEEDS; seed++) {
      run(seed, "orders", false);
      run(seed, "orders.fifo", false);
      run(seed, "orders", true);
      run(seed, "orders.fifo", true);
    }
    byte[] digest = MessageDigest.getInstance("SHA-256").digest(trace.toString().getBytes(StandardCharsets.UTF_8));
    if (!TRACE_DIGEST.equals(HexFormat.of().formatHex(digest))) {
      Files.createDirectories(Path.of("target"));
      Files.writeString(Path.of("target/queue-trace.txt"), trace);
    }
    assertEquals(TRACE_DIGEST, HexFormat.of().formatHex(digest), "the model behaves differently: see target/queue-trace.txt");
  }

  /** A name for a random id or handle, the same each time it appears. */
  String name(String kind, String raw) {
    return raw == null ? null : names.computeIfAbsent(raw, r -> kind + names.size());
  }

  /** Message ids within a text (a dead letter's deduplication id is one) named as ids. */
  String ids(String text) {
    return UUID.matcher(text).replaceAll(match -> name("id", match.group()));
  }

  String canonical(String text) {
    String out = text;
    for (Map.Entry<String, String> e : names.entrySet()) {
      out = out.replace(e.getKey(), e.getValue());
    }
    return out;
  }

  void run(long seed, String name, boolean holdSends) throws Exception {
    names.clear();
    Random r = new Random(seed);
    ChangeLogTest.Recording log = new ChangeLogTest.Recording(holdSends);
    ShardFixture shard = new ShardFixture(40_000, 3, 5, 8, log);
    boolean fifo = name.endsWith(".fifo");
    String dlqName = fifo ? "dead.fifo" : "dead";
    Map<String, String> dlqAttributes = fifo ? Map.of("FifoQueue", "true", "ContentBasedDeduplication", "true")
        : Map.of();
    QueueState dlq = shard.create(dlqName, dlqAttributes);
    Map<String, String> attributes = new HashMap<>(dlqAttributes);
    attributes.put("MessageRetentionPeriod", "60");
    attributes.put("RedrivePolicy",
        "{\"deadLetterTargetArn\":\"" + dlq.metadata().arn() + "\",\"maxReceiveCount\":2}");
    QueueState q = shard.create(name, attributes);
    List<String> handles = new ArrayList<>();
    List<String> dlqHandles = new ArrayList<>();
    List<ShardFixture.Recorder> waiters = new ArrayList<>();
    int n = 0;
    trace.append("run ").append(seed).append(' ').append(name).append(' ').append(holdSends).append('\n');
    for (int step = 0; step < STEPS; step++) {
      int op = r.nextInt(20);
      trace.append(step).append(" op ").append(op).append(": ");
      try {
        switch (op) {
          case 0, 1, 2, 3 -> trace.append(sent(q.send(newMessage(r, n++, fifo), false, shard.now)));
          case 4 -> {
            List<NewMessage> batch = new ArrayList<>();
            for (int i = r.nextInt(4); i >= 0; i--) {
              batch.add(newMessage(r, n++, fifo && r.nextInt(6) != 0));
            }
            q.checkBatch(batch);
            for (NewMessage m : batch) {
              try {
                trace.append(sent(q.send(m, true, shard.now))).append(' ');
              } catch (SqsException e) {
                trace.append(error(e)).append(' ');
              }
            }
          }
          case 5, 6, 7 -> {
            String attempt = fifo && r.nextInt(3) == 0 ? "try" + r.nextInt(3) : null;
            ReceiveSpec spec = new ReceiveSpec(1 + r.nextInt(10), r.nextInt(4) == 0 ? 0 : 1 + r.nextInt(5),
                AttributeSelection.of(List.of("All"), null, List.of("All")), attempt);
            trace.append(received(q.receive(spec, shard.now), handles));
          }
          case 8 -> {
            if (!handles.isEmpty()) {
              q.delete(pick(r, handles), shard.now);
            } else {
              q.delete("not-a-handle", shard.now);
            }
          }
          case 9 -> {
            if (!handles.isEmpty()) {
              int seconds = r.nextInt(8) == 0 ? 43_200 : r.nextInt(3) == 0 ? 0 : r.nextInt(6);
              q.changeVisibility(pick(r, handles), seconds, shard.now);
            }
          }
          case 10, 11 -> shard.advance(r.nextInt(4_000));
          case 12 -> {
            String key = r.nextBoolean() ? "DelaySeconds" : "MessageRetentionPeriod";
            String value = key.equals("DelaySeconds") ? Integer.toString(r.nextInt(3)) : Integer.toString(60 + r.nextInt(30));
            q.setAttributes(Map.of(key, value), shard.now);
          }
          case 13 -> {
            if (r.nextInt(6) == 0) {
              q.purge(shard.now);
            }
          }
          case 14 -> {
            if (shard.registry.find(dlqName) != null) {
              String destination = r.nextBoolean() ? null : q.metadata().arn();
              trace.append(dlq.startMoveTask(destination, r.nextBoolean() ? null : 1 + r.nextInt(3), shard.mover,
                  shard.now).status());
            }
          }
          case 15 -> {
            if (shard.registry.find(dlqName) != null) {
              trace.append(received(dlq.receive(ShardFixture.spec(1 + r.nextInt(3), r.nextBoolean() ? 0 : 2),
                  shard.now), dlqHandles));
              if (!dlqHandles.isEmpty() && r.nextBoolean()) {
                dlq.delete(pick(r, dlqHandles), shard.now);
              }
            }
          }
          case 16 -> {
            if (r.nextInt(6) == 0) {
              if (shard.registry.find(dlqName) != null) {
                shard.registry.delete(dlqName, shard.now);
              } else {
                dlq = shard.create(dlqName, dlqAttributes);
                dlqHandles.clear();
              }
            }
          }
          case 17 -> {
            ShardFixture.Recorder w = new ShardFixture.Recorder(
                new ReceiveSpec(1 + r.nextInt(3), 1 + r.nextInt(5), AttributeSelection.of(List.of("All"), null, null)));
            q.park(w.waiter, shard.now + 1 + r.nextInt(5_000));
            waiters.add(w);
          }
          case 18, 19 -> {
            if (!log.stored.isEmpty()) {
              Message m = log.stored.get(r.nextInt(log.stored.size()));
              String what = r.nextInt(5) == 0 ? "dropPending" : "commitPending";
              for (QueueState each : List.of(q, dlq)) {
                pendingCall(each, what, m, shard.now);
              }
              trace.append(what).append(' ').append(log.bodies.get(m));
            }
          }
          default -> throw new IllegalStateException();
        }
      } catch (SqsException e) {
        trace.append(error(e));
      }
      betweenSteps(shard, q, shard.registry.find(dlqName) == dlq ? dlq : null);
      trace.append(" | ").append(counts(q, shard.now)).append(" dlq ").append(counts(dlq, shard.now))
          .append(" budget ").append(shard.budget.usedBytes()).append(" timers ").append(shard.index.size())
          .append(" parked ").append(q.parkedCount()).append('/').append(shard.parking.parkedInShard())
          .append(" log ").append(log.lines).append(" waiters");
      log.lines.clear();
      for (ShardFixture.Recorder w : waiters) {
        trace.append(' ').append(w.completions.size());
        for (List<ReceiveMessage.Message> got : w.completions) {
          trace.append(received(got, handles));
        }
        w.completions.clear();
      }
      trace.append('\n');
    }
    shard.advance(400_000);
    for (String queue : List.of(name, dlqName)) {
      if (shard.registry.find(queue) != null) {
        shard.registry.delete(queue, shard.now);
      }
    }
    shard.advance(10);
    trace.append("end budget ").append(shard.budget.usedBytes()).append(" timers ").append(shard.index.size())
        .append(" log ").append(log.lines).append('\n');
  }

  /**
   * Runs after each step, before its counts are traced; nothing here. A subclass may do what must
   * leave the trace as it is ({@link PeekChangesNothingTest}), never drawing on the run's random.
   */
  void betweenSteps(ShardFixture shard, QueueState q, QueueState dlq) {}

  /** Pending sends are committed or dropped by the store that logged them, as the engine does. */
  static void pendingCall(QueueState q, String method, Message m, long nowMillis) throws Exception {
    Object store = q;
    try {
      var field = QueueState.class.getDeclaredField("store");
      field.setAccessible(true);
      store = field.get(q);
    } catch (NoSuchFieldException aQueueIsItsOwnStore) {
      // the replaced hierarchy: a queue is a message store
    }
    if (method.equals("commitPending")) {
      store.getClass().getMethod(method, Message.class, long.class).invoke(store, m, nowMillis);
    } else {
      store.getClass().getMethod(method, Message.class).invoke(store, m);
    }
  }

  static String pick(Random r, List<String> handles) {
    return handles.get(r.nextInt(handles.size()));
  }

  static NewMessage newMessage(Random r, int n, boolean grouped) {
    String body = r.nextInt(5) == 0 ? "again" + r.nextInt(3) : r.nextInt(40) == 0 ? "x".repeat(300_000) : "b" + n;
    Integer delay = r.nextInt(4) == 0 ? r.nextInt(3) : null;
    Map<String, MessageAttributeValue> attributes = r.nextInt(4) == 0
        ? Map.of("k" + r.nextInt(2), MessageAttributeValue.ofString("v" + n)) : null;
    String dedup = r.nextInt(5) == 0 ? "d" + r.nextInt(4) : null;
    String group = grouped ? "g" + r.nextInt(4) : null;
    return new NewMessage(body, delay, attributes, null, dedup, group, "sender", null);
  }

  String sent(SendMessage.Response s) {
    return "sent " + name("id", s.messageId()) + ' ' + s.md5OfMessageBody() + ' ' + s.md5OfMessageAttributes() + ' '
        + s.md5OfMessageSystemAttributes() + ' ' + s.sequenceNumber();
  }

  String received(List<ReceiveMessage.Message> got, List<String> handles) {
    StringBuilder out = new StringBuilder("[");
    for (ReceiveMessage.Message m : got) {
      handles.add(m.receiptHandle());
      out.append(m.body().length() > 20 ? "long" : m.body()).append(' ').append(name("id", m.messageId())).append(' ')
          .append(name("rh", m.receiptHandle())).append(' ').append(m.md5OfBody()).append(' ')
          .append(ids(String.valueOf(m.attributes()))).append(' ').append(m.md5OfMessageAttributes()).append(' ')
          .append(m.messageAttributes() == null ? null : m.messageAttributes().keySet()).append(';');
    }
    return out.append(']').toString();
  }

  String error(SqsException e) {
    return "error " + e.code() + ' ' + canonical(e.getMessage());
  }

  static String counts(QueueState q, long now) {
    return q.approximateNumberOfMessages(now) + "/" + q.approximateNumberOfMessagesNotVisible() + "/"
        + q.approximateNumberOfMessagesDelayed(now) + "/" + q.oldestSentAtMillis() + "/" + q.inflightLimitReached();
  }
}
