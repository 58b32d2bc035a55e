package dev.sluice.outbox;

/**
 * One row of an outbox table as a round read it: its id, its destination's name (a queue's or a
 * topic's: exactly one of them is meant to be set), and the message it stands for
 * ({@code attributesJson} the text of message_attributes; null members: not given). A value.
 */
record OutboxRow(long id, String queueName, String topicName, String body, String attributesJson,
    Integer delaySeconds, String groupId, String deduplicationId) {}
