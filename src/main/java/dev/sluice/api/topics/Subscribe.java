package dev.sluice.api.topics;

import java.util.Map;

/**
 * Subscribe (its page in the SNS API reference): {@code attributes} may be null; the answer is the
 * subscription's ARN, or {@code pending confirmation} for one that waits for it unless
 * {@code returnSubscriptionArn} is true.
 */
public final class Subscribe {
  private Subscribe() {}

  public record Request(String topicArn, String protocol, String endpoint, Map<String, String> attributes,
      Boolean returnSubscriptionArn) {}

  public record Response(String subscriptionArn) {}
}
