package dev.sluice.api.topics;

/** SetTopicAttributes (its page in the SNS API reference): one attribute a call; a null value clears it. */
public final class SetTopicAttributes {
  private SetTopicAttributes() {}

  public record Request(String topicArn, String attributeName, String attributeValue) {}
}
