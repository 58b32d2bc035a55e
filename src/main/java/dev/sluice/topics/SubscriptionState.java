package dev.sluice.topics;

import dev.sluice.api.topics.SubscriptionSummary;
import java.util.Map;
import java.util.TreeMap;

/**
 * One subscription of a topic: its id (the last part of its ARN), where it delivers (protocol and
 * endpoint), the account that made it, and its attributes. Owned by its topic's shard loop.
 */
public final class SubscriptionState {
  private final String id;
  private final String topicArn;
  private final String protocol;
  private final String endpoint;
  private final String owner;
  private final String principal;
  private final long createdAtMillis;
  private SubscriptionAttributes attributes;

  SubscriptionState(String id, String topicArn, String protocol, String endpoint, String owner, String principal,
      long createdAtMillis, SubscriptionAttributes attributes) {
    this.id = id;
    this.topicArn = topicArn;
    this.protocol = protocol;
    this.endpoint = endpoint;
    this.owner = owner;
    this.principal = principal;
    this.createdAtMillis = createdAtMillis;
    this.attributes = attributes;
  }

  public String id() {
    return id;
  }

  public String arn() {
    return topicArn + ":" + id;
  }

  public String protocol() {
    return protocol;
  }

  public String endpoint() {
    return endpoint;
  }

  public String owner() {
    return owner;
  }

  public String principal() {
    return principal;
  }

  public long createdAtMillis() {
    return createdAtMillis;
  }

  public SubscriptionAttributes attributes() {
    return attributes;
  }

  void attributes(SubscriptionAttributes changed) {
    this.attributes = changed;
  }

  public SubscriptionSummary summary() {
    return new SubscriptionSummary(arn(), owner, protocol, endpoint, topicArn);
  }

  /** GetSubscriptionAttributes (AWS-recorded set for a confirmed SQS subscription). */
  public Map<String, String> view() {
    Map<String, String> out = new TreeMap<>();
    out.put("ConfirmationWasAuthenticated", "true");
    out.put("Endpoint", endpoint);
    out.put("Owner", owner);
    out.put("PendingConfirmation", "false");
    out.put("Protocol", protocol);
    out.put("SubscriptionArn", arn());
    out.put("SubscriptionPrincipal", principal);
    out.put("TopicArn", topicArn);
    attributes.addTo(out);
    return out;
  }
}
