package dev.sluice.topics;

import dev.sluice.api.AccountRegion;
import dev.sluice.api.topics.SnsException;
import dev.sluice.api.topics.TopicKey;

/**
 * Topic ARNs ({@code arn:aws:sns:<region>:<account>:<name>}) read from requests, with the errors
 * SNS gives for ones it cannot read: fewer than six parts is "An ARN must have at least 6 elements,
 * not N" (AWS-recorded), anything else that names no topic of SNS is "Invalid parameter: {member}".
 * An ARN of another region than the request's is refused the same way (AWS-recorded: SNS serves
 * one region per endpoint). Stateless.
 */
public final class TopicArns {
  private TopicArns() {}

  /**
   * The topic {@code arn} names, read as the request member {@code member} (TopicArn,
   * ResourceArn, …) by a caller acting in {@code place}.
   */
  public static TopicKey keyOf(String arn, String member, AccountRegion place) {
    if (arn == null) {
      throw SnsException.missing(Character.toLowerCase(member.charAt(0)) + member.substring(1));
    }
    String[] parts = arn.split(":", -1);
    if (parts.length < 6) {
      throw SnsException.invalidParameter(member, "An ARN must have at least 6 elements, not " + parts.length);
    }
    if (parts.length != 6 || !parts[0].equals("arn") || !parts[1].startsWith("aws") || !parts[2].equals("sns")
        || !isAccount(parts[4]) || !TopicNames.isValid(parts[5])) {
      throw SnsException.invalidParameter(member);
    }
    if (!parts[3].equals(place.region())) {
      throw SnsException.invalidParameter(member);
    }
    return new TopicKey(parts[4], parts[3], parts[5]);
  }

  /** A subscription as its ARN names it: its topic and its id (the ARN's last part). */
  public record SubscriptionRef(TopicKey topic, String id) {
    public String arn() {
      return topic.arn() + ":" + id;
    }
  }

  /**
   * The subscription {@code arn} names ({@code <topic ARN>:<id>}), read as {@code member}: too few
   * parts is counted as for topics, a topic ARN without the id is "Invalid parameter:
   * SubscriptionId" (both AWS-recorded).
   */
  public static SubscriptionRef subscriptionOf(String arn, String member, AccountRegion place) {
    if (arn == null) {
      throw SnsException.missing(Character.toLowerCase(member.charAt(0)) + member.substring(1));
    }
    int cut = arn.lastIndexOf(':');
    String[] parts = arn.split(":", -1);
    if (parts.length < 6) {
      throw SnsException.invalidParameter(member, "An ARN must have at least 6 elements, not " + parts.length);
    }
    if (parts.length == 6) {
      throw SnsException.invalidParameter("SubscriptionId");
    }
    String id = arn.substring(cut + 1);
    if (parts.length != 7 || id.isEmpty() || id.length() > 64) {
      throw SnsException.invalidParameter(member);
    }
    return new SubscriptionRef(keyOf(arn.substring(0, cut), member, place), id);
  }

  private static boolean isAccount(String s) {
    return s.length() == 12 && s.chars().allMatch(c -> c >= '0' && c <= '9');
  }
}
