package dev.sluice.model;

import dev.sluice.api.AccountRegion;
import dev.sluice.api.ErrorCode;
import dev.sluice.api.Limits;
import dev.sluice.api.SqsException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The queues of one account and region that live on one shard, by name, and the names deleted
 * there in the last 60 seconds (which may not be created again yet). Owned by the shard event loop;
 * pure, with the time passed in.
 */
public final class QueueRegistry {
  private final ShardResources env;
  private final AccountRegion place;
  private final Map<String, QueueState> queues = new HashMap<>();
  /** Deletion time by name, oldest first, pruned as entries pass the 60-second wait. */
  private final LinkedHashMap<String, Long> deletedAtMillis = new LinkedHashMap<>();

  public QueueRegistry(ShardResources env, AccountRegion place) {
    this.env = env;
    this.place = place;
  }


  /**
   * CreateQueue (its page in the AWS API reference): the existing queue when the given attributes match it, a new
   * queue otherwise, or OverLimit when the server holds engine.maxQueues queues already.
   */
  public QueueState create(String name, Map<String, String> attributes, Map<String, String> tags, long nowMillis) {
    Map<String, String> attrs = attributes == null ? Map.of() : attributes;
    boolean fifo = checkNameAndType(name, attrs);
    QueueState existing = queues.get(name);
    if (existing != null) {
      String differs = existing.attributes().firstDifference(attrs);
      if (differs != null) {
        throw new SqsException(
            ErrorCode.QUEUE_NAME_EXISTS,
            "A queue already exists with the same name and a different value for attribute " + differs);
      }
      return existing;
    }
    pruneDeleted(nowMillis);
    if (deletedAtMillis.containsKey(name)) {
      throw new SqsException(
          ErrorCode.QUEUE_DELETED_RECENTLY,
          "You must wait 60 seconds after deleting a queue before you can create another with the same name.");
    }
    QueueAttributes qa = QueueAttributes.create(fifo, attrs);
    long generation = ThreadLocalRandom.current().nextLong();
    QueueMetadata md = new QueueMetadata(place.queue(name), generation, nowMillis, qa);
    if (tags != null && !tags.isEmpty()) {
      md.tag(tags);
    }
    // Taken last, once nothing else can refuse the queue: a refused one must not hold a slot.
    if (!env.queueLimit().tryTake()) {
      throw new SqsException(ErrorCode.OVER_LIMIT, "You have reached the maximum number of queues ("
          + env.queueLimit().maxQueues() + ") this server allows (engine.maxQueues).");
    }
    QueueState q = newQueue(md);
    queues.put(name, q);
    env.directory().created(q.metadata().key());
    env.changes().queueSaved(q);
    return q;
  }

  private QueueState newQueue(QueueMetadata md) {
    return new QueueState(env, md);
  }

  /**
   * A queue as the durable store gives it back at start-up, with its generation (receipt handles
   * issued before the restart stay valid), times, attributes and tags. Nothing is written back. It
   * counts against the queue limit even past it: it exists already.
   */
  public QueueState restore(
      String name, long generation, long createdAtMillis, long modifiedAtMillis, Map<String, String> attributes,
      Map<String, String> tags) {
    QueueAttributes qa = QueueAttributes.restored(name.endsWith(".fifo"), attributes);
    if (qa.policyRejection() != null) {
      // Kept so that the server starts, but it grants nothing and denies nothing: say so.
      System.getLogger(QueueRegistry.class.getName()).log(System.Logger.Level.WARNING, "Queue " + QueueArns.arnOf(place.queue(name))
          + " keeps a Policy this version cannot enforce (" + qa.policyRejection().getMessage() + "): only its account's"
          + " own permissions apply to it until the Policy is set again");
    }
    QueueMetadata md = new QueueMetadata(place.queue(name), generation, createdAtMillis, qa);
    md.setAttributes(qa, modifiedAtMillis);
    if (!tags.isEmpty()) {
      md.tag(tags);
    }
    QueueState q = newQueue(md);
    queues.put(name, q);
    env.queueLimit().take();
    env.directory().created(q.metadata().key());
    return q;
  }

  /** Validates the name and its agreement with FifoQueue; returns whether the queue is FIFO. */
  static boolean checkNameAndType(String name, Map<String, String> attrs) {
    if (name == null || name.isEmpty()) {
      throw SqsException.missingParameter("QueueName");
    }
    boolean fifoName = name.endsWith(".fifo");
    if (!isValidName(name)) {
      throw SqsException.invalidParameter(
          "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length");
    }
    boolean fifoFlag = "true".equalsIgnoreCase(attrs.get(QueueAttributes.FIFO_QUEUE));
    if (fifoFlag && !fifoName) {
      throw SqsException.invalidParameter(
          "The name of a FIFO queue can only include alphanumeric characters, hyphens, or underscores,"
              + " must end with .fifo suffix and be 1 to 80 in length.");
    }
    if (fifoName && !fifoFlag) {
      throw SqsException.invalidParameter(
          "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length");
    }
    return fifoName;
  }

  /**
   * Whether {@code name} may name a queue: 1 to 80 characters, alphanumeric, hyphens or
   * underscores, with an optional {@code .fifo} suffix counted in the 80.
   */
  public static boolean isValidName(String name) {
    if (name == null || name.length() > Limits.QUEUE_NAME_MAX_LENGTH) {
      return false;
    }
    String base = name.endsWith(".fifo") ? name.substring(0, name.length() - 5) : name;
    return !base.isEmpty()
        && base.chars().allMatch(c -> c < 128 && (Character.isLetterOrDigit(c) || c == '-' || c == '_'));
  }

  /** The queue, or QueueDoesNotExist. */
  public QueueState get(String name) {
    QueueState q = queues.get(name);
    if (q == null) {
      throw SqsException.queueDoesNotExist();
    }
    return q;
  }

  public QueueState find(String name) {
    return queues.get(name);
  }

  public void delete(String name, long nowMillis) {
    QueueState q = get(name);
    queues.remove(name);
    env.queueLimit().release();
    env.directory().deleted(q.metadata().key());
    env.changes().queueDeleted(q);
    q.close();
    pruneDeleted(nowMillis);
    deletedAtMillis.remove(name);
    deletedAtMillis.put(name, nowMillis);
  }

  /**
   * Whether this registry holds nothing any more: no queue, and no name deleted within the last 60
   * seconds (which a create must still wait for). Such a registry may be dropped; a new one for
   * the same place behaves the same.
   */
  public boolean idleAt(long nowMillis) {
    pruneDeleted(nowMillis);
    return queues.isEmpty() && deletedAtMillis.isEmpty();
  }

  /** Every queue of this account and region on this shard, for the metrics and for a stopping server. */
  public Collection<QueueState> all() {
    return queues.values();
  }

  /** Names starting with the prefix (case-sensitive), unsorted. */
  public List<String> names(String prefix) {
    List<String> out = new ArrayList<>();
    for (String n : queues.keySet()) {
      if (prefix == null || n.startsWith(prefix)) {
        out.add(n);
      }
    }
    return out;
  }

  /**
   * Names of the queues whose RedrivePolicy targets the queue with this ARN, unsorted. A dead-letter
   * queue is always of its sources' account and region, so a registry of another place finds none.
   */
  public List<String> deadLetterSourcesOf(String deadLetterQueueArn) {
    List<String> out = new ArrayList<>();
    queues.forEach((name, q) -> {
      RedrivePolicy p = q.attributes().redrivePolicy();
      if (p != null && p.deadLetterTargetArn().equals(deadLetterQueueArn)) {
        out.add(name);
      }
    });
    return out;
  }

  private void pruneDeleted(long nowMillis) {
    Iterator<Map.Entry<String, Long>> it = deletedAtMillis.entrySet().iterator();
    while (it.hasNext()) {
      if (it.next().getValue() + Limits.QUEUE_RECREATE_WAIT_MILLIS > nowMillis) {
        return;
      }
      it.remove();
    }
  }
}
