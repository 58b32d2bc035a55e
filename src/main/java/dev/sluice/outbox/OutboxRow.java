package dev.sluice.outbox;

/**
 * One row of an outbox table as a round read it: its id, its destination queue's name, and the
 * SendMessage it stands for ({@code attributesJson} the text of message_attributes; null members:
 * not given). A value.
 */
record OutboxRow(long id, String queueName, String body, String attributesJson, Integer delaySeconds,
    String groupId, String deduplicationId) {}
