package dev.sluice.engine;

import dev.sluice.api.AccountRegion;
import dev.sluice.api.Caller;
import dev.sluice.api.topics.CreateTopic;
import dev.sluice.api.topics.DeleteTopic;
import dev.sluice.api.topics.GetTopicAttributes;
import dev.sluice.api.topics.ListTagsForResource;
import dev.sluice.api.topics.ListTopics;
import dev.sluice.api.topics.SetTopicAttributes;
import dev.sluice.api.topics.SnsErrorCode;
import dev.sluice.api.topics.SnsException;
import dev.sluice.api.topics.TagResource;
import dev.sluice.api.topics.TopicKey;
import dev.sluice.api.topics.UntagResource;
import dev.sluice.topics.TopicArns;
import dev.sluice.topics.TopicState;
import io.vertx.core.Future;

/**
 * Topic lifecycle, attributes and tags (the SNS API reference): each runs on the shard its topic's
 * key routes to, after the owner check ({@link TopicShards}); ListTopics asks every shard
 * ({@link TopicListing}).
 */
public final class TopicActions {
  private final TopicShards shards;
  private final TopicListing listing;

  TopicActions(TopicShards shards) {
    this.shards = shards;
    this.listing = new TopicListing(shards.dispatcher());
  }

  /** A new topic belongs to the caller's account, in the caller's region. */
  public Future<CreateTopic.Response> createTopic(Caller c, CreateTopic.Request r) {
    if (r.name() == null) {
      throw SnsException.missing("name");
    }
    TopicKey key = new TopicKey(c.accountId(), c.region(), r.name());
    check(c, "CreateTopic", key);
    return shards.change(key, s -> {
      TopicState t = s.topics().create(key, r.attributes(), r.tags(), s.now());
      return s.topicWrites().saveTopic(t).map(new CreateTopic.Response(t.arn()));
    });
  }

  /** Deleting a topic that is not there succeeds, as at AWS (recorded). */
  public Future<Void> deleteTopic(Caller c, DeleteTopic.Request r) {
    TopicKey key = topicArn(c, r.topicArn());
    check(c, "DeleteTopic", key);
    return shards.change(key, s -> {
      s.topics().delete(key);
      return s.topicWrites().deleteTopic(key);
    });
  }

  public Future<ListTopics.Response> listTopics(Caller c, ListTopics.Request r) {
    AccountRegion place = c.accountRegion();
    shards.check(c, "ListTopics", place.accountId(), "arn:aws:sns:" + place.region() + ":" + place.accountId() + ":*");
    return listing.list(place, r.nextToken());
  }

  public Future<GetTopicAttributes.Response> getTopicAttributes(Caller c, GetTopicAttributes.Request r) {
    TopicKey key = topicArn(c, r.topicArn());
    check(c, "GetTopicAttributes", key);
    return shards.onShard(key, s -> new GetTopicAttributes.Response(s.topics().get(key).attributeView()));
  }

  public Future<Void> setTopicAttributes(Caller c, SetTopicAttributes.Request r) {
    TopicKey key = topicArn(c, r.topicArn());
    check(c, "SetTopicAttributes", key);
    return shards.change(key, s -> {
      TopicState t = s.topics().get(key);
      t.setAttribute(r.attributeName(), r.attributeValue());
      return s.topicWrites().saveTopic(t);
    });
  }

  public Future<Void> tagResource(Caller c, TagResource.Request r) {
    TopicKey key = resourceArn(c, r.resourceArn());
    check(c, "TagResource", key);
    if (r.tags() == null) {
      throw SnsException.missing("tags");
    }
    return shards.change(key, s -> {
      TopicState t = tagged(s, key);
      t.tag(r.tags());
      return s.topicWrites().saveTopic(t);
    });
  }

  public Future<Void> untagResource(Caller c, UntagResource.Request r) {
    TopicKey key = resourceArn(c, r.resourceArn());
    check(c, "UntagResource", key);
    if (r.tagKeys() == null) {
      throw SnsException.missing("tagKeys");
    }
    return shards.change(key, s -> {
      TopicState t = tagged(s, key);
      t.untag(r.tagKeys());
      return s.topicWrites().saveTopic(t);
    });
  }

  public Future<ListTagsForResource.Response> listTagsForResource(Caller c, ListTagsForResource.Request r) {
    TopicKey key = resourceArn(c, r.resourceArn());
    check(c, "ListTagsForResource", key);
    return shards.onShard(key, s -> new ListTagsForResource.Response(tagged(s, key).tags().ordered()));
  }

  /** The topic a TopicArn names, in the caller's region. */
  static TopicKey topicArn(Caller c, String arn) {
    return TopicArns.keyOf(arn, "TopicArn", c.accountRegion());
  }

  /** The topic a ResourceArn (the tagging actions) names, in the caller's region. */
  static TopicKey resourceArn(Caller c, String arn) {
    return TopicArns.keyOf(arn, "ResourceArn", c.accountRegion());
  }

  /** The tagging actions answer a missing topic ResourceNotFound, not NotFound (SNS API reference: TagResource). */
  private static TopicState tagged(Shard s, TopicKey key) {
    TopicState t = s.topics().find(key);
    if (t == null) {
      throw new SnsException(SnsErrorCode.RESOURCE_NOT_FOUND, "Resource does not exist");
    }
    return t;
  }

  private void check(Caller c, String action, TopicKey key) {
    shards.check(c, action, key);
  }

}
