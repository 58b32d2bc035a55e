package dev.sluice.engine;

import dev.sluice.api.BatchResultErrorEntry;
import dev.sluice.api.Caller;
import dev.sluice.api.RelaySend;
import dev.sluice.api.topics.Publish;
import dev.sluice.api.topics.PublishBatch;
import dev.sluice.api.topics.SnsErrorCode;
import dev.sluice.api.topics.SnsException;
import dev.sluice.api.topics.TopicKey;
import dev.sluice.model.SequenceNumbers;
import dev.sluice.topics.FanOut;
import dev.sluice.topics.PublishContent;
import dev.sluice.topics.PublishValidation;
import dev.sluice.topics.TopicArns;
import dev.sluice.topics.TopicDeduplication;
import dev.sluice.topics.TopicState;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Publish and PublishBatch (the SNS API reference): checked on the caller's loop
 * ({@link PublishValidation}), then on the topic's shard: FIFO rules, deduplication and sequence
 * numbers, the copies for the subscriptions whose filter policies accept the message
 * ({@link FanOut}), each handed to its queue's shard. A publish is answered once every copy is
 * stored, so no subscriber misses an acknowledged publish ({@link TopicDeliveries}); its HTTP/HTTPS
 * notifications then leave ({@link HttpDeliveries}), not waited for, as at AWS.
 */
public final class PublishActions {
  static final int MAX_BATCH_ENTRIES = 10;
  static final int MAX_ENTRY_ID_LENGTH = 80;

  private final TopicShards shards;
  private final TopicDeliveries deliveries;
  private final TopicSigner signer;
  private final HttpDeliveries http;

  PublishActions(TopicShards shards, TopicSigner signer, TopicDeliveries deliveries, HttpDeliveries http) {
    this.shards = shards;
    this.deliveries = deliveries;
    this.signer = signer;
    this.http = http;
  }

  public Future<Publish.Response> publish(Caller c, Publish.Request r) {
    TopicKey key = targetOf(c, r);
    shards.check(c, "Publish", key);
    PublishContent content = PublishValidation.check(r.message(), r.subject(), r.messageStructure(),
        r.messageAttributes(), r.messageGroupId(), r.messageDeduplicationId(), "");
    String baseUrl = c.baseUrl();
    return shards.call(key, (s, reply) -> {
      TopicState t = s.topics().get(key);
      checkKind(t, content);
      Accepted a = accept(t, content, baseUrl, s.now(), null);
      Future<Void> stored = a.published == null ? Future.succeededFuture() : deliver(t, a);
      stored.onComplete(done -> {
        if (done.succeeded()) {
          reply.succeed(new Publish.Response(a.messageId, a.sequenceNumber));
        } else {
          reply.fail(done.cause());
        }
      });
    });
  }

  /**
   * Every entry is checked before any is published: one that SNS would refuse fails the whole
   * request, as AWS answers it (recorded). Entries are then published in order; an entry whose
   * copies could not all be stored is reported failed and may be retried.
   */
  public Future<PublishBatch.Response> publishBatch(Caller c, PublishBatch.Request r) {
    TopicKey key = TopicActions.topicArn(c, r.topicArn());
    shards.check(c, "Publish", key);
    List<PublishBatch.Entry> entries = r.entries();
    checkEntries(entries);
    List<PublishContent> contents = new ArrayList<>(entries.size());
    long bytes = 0;
    for (int i = 0; i < entries.size(); i++) {
      PublishBatch.Entry e = entries.get(i);
      contents.add(PublishValidation.check(e.message(), e.subject(), e.messageStructure(), e.messageAttributes(),
          e.messageGroupId(), e.messageDeduplicationId(), "publishBatchRequestEntries." + (i + 1) + ".member."));
      bytes += PublishValidation.bytesOf(e.message(), contents.get(i).attributes());
    }
    if (bytes > PublishValidation.MAX_BYTES) {
      throw new SnsException(SnsErrorCode.BATCH_REQUEST_TOO_LONG,
          "The length of all the messages put together is more than the limit.");
    }
    String baseUrl = c.baseUrl();
    return shards.call(key, (s, reply) -> {
      TopicState t = s.topics().get(key);
      long now = s.now();
      // Every entry is checked before any is taken: a refused one leaves no deduplication entry behind.
      contents.forEach(content -> checkKind(t, content));
      List<Accepted> accepted = new ArrayList<>(contents.size());
      for (PublishContent content : contents) {
        accepted.add(accept(t, content, baseUrl, now, null));
      }
      List<Future<Void>> stored = new ArrayList<>(accepted.size());
      for (Accepted a : accepted) {
        stored.add(a.published == null ? Future.succeededFuture() : deliver(t, a));
      }
      Future.join(stored).onComplete(done -> {
        List<PublishBatch.ResultEntry> ok = new ArrayList<>();
        List<BatchResultErrorEntry> failed = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
          String id = entries.get(i).id();
          if (stored.get(i).succeeded()) {
            ok.add(new PublishBatch.ResultEntry(id, accepted.get(i).messageId, accepted.get(i).sequenceNumber));
          } else {
            // Every entry was valid: what failed is the delivery, never the sender's fault.
            SnsException e = TopicDeliveries.asSns(stored.get(i).cause());
            failed.add(new BatchResultErrorEntry(id, false, e.code().code(), e.getMessage()));
          }
        }
        reply.succeed(new PublishBatch.Response(ok, failed));
      });
    });
  }

  /**
   * The outbox relay's publishes (src/site/markdown/outbox.md): each row checked as a Publish, then
   * published in order, its copies stored with the row's receipt in their queues. A row refused for
   * itself is answered so, and the rest still go; a row whose copies could not all be stored is
   * answered with the retryable failure; a topic that does not exist fails the call.
   */
  public Future<RelaySend.Response> relayPublish(Caller c, RelaySend.Publish r) {
    TopicKey key = TopicActions.topicArn(c, r.topicArn());
    shards.check(c, "Publish", key);
    List<PublishContent> contents = new ArrayList<>(r.entries().size());
    List<RelaySend.Result> refused = new ArrayList<>(r.entries().size());
    for (RelaySend.Entry e : r.entries()) {
      try {
        if (e.delaySeconds() != null && e.delaySeconds() != 0) {
          throw SnsException.invalidParameter("DelaySeconds", "a topic's messages cannot be delayed");
        }
        contents.add(PublishValidation.check(e.messageBody(), null, null, e.messageAttributes(), e.messageGroupId(),
            e.messageDeduplicationId(), ""));
        refused.add(null);
      } catch (SnsException x) {
        contents.add(null);
        refused.add(new RelaySend.Result(e.rowId(), null, false, x.code().code(), x.getMessage(), true));
      }
    }
    String baseUrl = c.baseUrl();
    return shards.call(key, (s, reply) -> {
      TopicState t = s.topics().get(key);
      List<Future<String>> published = new ArrayList<>(contents.size());
      for (int i = 0; i < contents.size(); i++) {
        RelaySend.Entry e = r.entries().get(i);
        if (contents.get(i) == null) {
          published.add(Future.succeededFuture());
          continue;
        }
        try {
          checkKind(t, contents.get(i));
          Accepted a = accept(t, contents.get(i), baseUrl, s.now(), new RelaySend.Row(r.source(), r.epoch(), e.rowId()));
          published.add((a.published == null ? Future.<Void>succeededFuture() : deliver(t, a)).map(a.messageId));
        } catch (SnsException x) {
          refused.set(i, new RelaySend.Result(e.rowId(), null, false, x.code().code(), x.getMessage(), true));
          published.add(Future.succeededFuture());
        }
      }
      Future.join(published).onComplete(done -> {
        List<RelaySend.Result> results = new ArrayList<>(contents.size());
        for (int i = 0; i < contents.size(); i++) {
          long rowId = r.entries().get(i).rowId();
          if (refused.get(i) != null) {
            results.add(refused.get(i));
          } else if (published.get(i).succeeded()) {
            results.add(new RelaySend.Result(rowId, published.get(i).result(), false, null, null, false));
          } else {
            SnsException x = TopicDeliveries.asSns(published.get(i).cause());
            results.add(new RelaySend.Result(rowId, null, false, x.code().code(), x.getMessage(), false));
          }
        }
        reply.succeed(new RelaySend.Response(results));
      });
    });
  }

  /**
   * Delivers an accepted publish; one that could not be (a copy refused for now) is forgotten by
   * the FIFO topic's deduplication, so that the publisher's retry is delivered, not answered as a
   * duplicate.
   */
  private Future<Void> deliver(TopicState t, Accepted a) {
    return copies(t, a.published).onFailure(unstored -> {
      if (a.deduplicationKey != null) {
        t.deduplication().forget(a.deduplicationKey, a.messageId);
      }
    });
  }

  /**
   * The copies of a publish, each handed to its queue once its envelopes are signed (off the loop;
   * a FIFO topic's are not signed, so its copies leave at once, in order), then its notifications to
   * HTTP/HTTPS subscribers once every copy is stored (a publish that fails is retried by its
   * publisher, and only then notified).
   */
  private Future<Void> copies(TopicState t, FanOut.Published p) {
    List<FanOut.Target> targets = FanOut.targets(t, p);
    t.counted(targets.size());
    if (targets.isEmpty()) {
      FanOut.push(t, p);
      return Future.succeededFuture();
    }
    Map<String, String> texts = FanOut.textsToSign(t, p, targets);
    if (texts.isEmpty()) {
      return deliver(t, p, targets, Map.of(), null);
    }
    return signer.sign(texts, t.attributes().signatureVersion()).compose(signed -> deliver(t, p, targets,
        signed.signatures(), p.baseUrl() + signed.certificatePath()));
  }

  private Future<Void> deliver(TopicState t, FanOut.Published p, List<FanOut.Target> targets,
      Map<String, String> signatures, String certificateUrl) {
    return deliveries.deliver(t, FanOut.copies(t, p, targets, signatures, certificateUrl)).onSuccess(stored -> {
      for (FanOut.Notification n : FanOut.notifications(t, p, targets, signatures, certificateUrl)) {
        http.notify(t, n);
      }
      FanOut.push(t, p);
    });
  }

  /**
   * A publish the topic took: its answer, what to deliver (null for a FIFO duplicate) and, on a FIFO
   * topic, the key it is remembered under.
   */
  private record Accepted(String messageId, String sequenceNumber, FanOut.Published published,
      String deduplicationKey) {}

  /**
   * What the topic's kind asks of a publish: FIFO topics need a message group and a deduplication
   * id (or content-based deduplication); standard topics refuse a deduplication id (AWS-recorded
   * texts).
   */
  private static void checkKind(TopicState t, PublishContent content) {
    if (!t.fifo()) {
      if (content.deduplicationId() != null) {
        throw SnsException.invalidParameter("MessageDeduplicationId", "The request includes MessageDeduplicationId"
            + " parameter that is not valid for this topic type");
      }
      return;
    }
    if (content.groupId() == null) {
      throw SnsException.invalidParameter("The MessageGroupId parameter is required for FIFO topics");
    }
    if (content.deduplicationId() == null && !t.attributes().contentBasedDeduplication()) {
      throw SnsException.invalidParameter("The topic should either have ContentBasedDeduplication enabled or"
          + " MessageDeduplicationId provided explicitly");
    }
  }

  /**
   * The topic's side of a publish checked by {@link #checkKind}: FIFO topics give a sequence number,
   * and a duplicate within five minutes is answered as the first one was and delivers nothing.
   */
  private static Accepted accept(TopicState t, PublishContent content, String baseUrl, long now,
      RelaySend.Row relayed) {
    String messageId = UUID.randomUUID().toString();
    if (!t.fifo()) {
      return new Accepted(messageId, null, new FanOut.Published(messageId, null, now, baseUrl, content, null,
          relayed), null);
    }
    String dedupId = FanOut.deduplicationIdOf(content);
    String dedupKey = "MessageGroup".equals(t.attributes().get("FifoThroughputScope"))
        ? content.groupId() + "\n" + dedupId : dedupId;
    TopicDeduplication.Original first = t.deduplication().find(dedupKey, now);
    if (first != null) {
      return new Accepted(first.messageId(), SequenceNumbers.format(first.sequenceNumber()), null, null);
    }
    long sequence = t.nextSequence(now);
    t.deduplication().remember(dedupKey, messageId, sequence, now);
    String formatted = SequenceNumbers.format(sequence);
    return new Accepted(messageId, formatted, new FanOut.Published(messageId, formatted, now, baseUrl, content,
        dedupId, relayed), dedupKey);
  }

  /** The topic a Publish names: TopicArn, or TargetArn naming a topic; SMS and mobile endpoints are not served. */
  private static TopicKey targetOf(Caller c, Publish.Request r) {
    if (r.topicArn() != null) {
      return TopicActions.topicArn(c, r.topicArn());
    }
    if (r.targetArn() != null) {
      if (r.targetArn().contains(":endpoint/")) {
        throw SnsException.invalidParameter("TargetArn", "No endpoint found for the target arn specified");
      }
      return TopicArns.keyOf(r.targetArn(), "TargetArn", c.accountRegion());
    }
    if (r.phoneNumber() != null) {
      throw SnsException.invalidParameter("PhoneNumber", r.phoneNumber() + " is not valid to publish to");
    }
    throw SnsException.invalidParameter("TopicArn or TargetArn Reason: no value for required parameter");
  }

  /** The batch's own rules, in the order AWS checks them (recorded): count, then distinct ids, then each id. */
  private static void checkEntries(List<PublishBatch.Entry> entries) {
    if (entries == null || entries.isEmpty()) {
      throw new SnsException(SnsErrorCode.EMPTY_BATCH_REQUEST, "The batch request doesn't contain any entries.");
    }
    if (entries.size() > MAX_BATCH_ENTRIES) {
      throw new SnsException(SnsErrorCode.TOO_MANY_ENTRIES_IN_BATCH_REQUEST,
          "The batch request contains more entries than permissible.");
    }
    Set<String> ids = new HashSet<>();
    for (PublishBatch.Entry e : entries) {
      if (e.id() == null) {
        throw SnsException.missing("publishBatchRequestEntries.member.id");
      }
      if (!ids.add(e.id())) {
        throw new SnsException(SnsErrorCode.BATCH_ENTRY_IDS_NOT_DISTINCT,
            "Two or more batch entries in the request have the same Id.");
      }
    }
    for (PublishBatch.Entry e : entries) {
      String id = e.id();
      if (id.length() > MAX_ENTRY_ID_LENGTH) {
        throw new SnsException(SnsErrorCode.INVALID_BATCH_ENTRY_ID,
            "The Id of a batch entry in the batch request is too long: " + id);
      }
      boolean ok = !id.isEmpty() && id.chars().allMatch(ch -> (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')
          || (ch >= '0' && ch <= '9') || ch == '-' || ch == '_');
      if (!ok) {
        throw new SnsException(SnsErrorCode.INVALID_BATCH_ENTRY_ID,
            "The Id of a batch entry in the batch request contains an impermissible character: " + id);
      }
    }
  }
}
