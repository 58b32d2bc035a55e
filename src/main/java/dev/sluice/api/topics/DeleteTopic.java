package dev.sluice.api.topics;

/** DeleteTopic (its page in the SNS API reference): answers nothing, also for a topic that is gone. */
public final class DeleteTopic {
  private DeleteTopic() {}

  public record Request(String topicArn) {}
}
