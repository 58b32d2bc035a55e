package dev.sluice.topics;

import dev.sluice.api.MessageAttributeValue;
import java.util.Map;

/**
 * One publish as validated ({@link PublishValidation}): the message each protocol receives (one for
 * all, or one per protocol key with MessageStructure json), the subject, the attributes and the
 * FIFO fields as given. Immutable.
 *
 * @param message the message for protocols {@code perProtocol} names no message of (the default)
 * @param perProtocol with MessageStructure json, the message of each protocol key besides {@code default}
 * @param attributes the message attributes, in request order; empty for none
 */
public record PublishContent(String message, Map<String, String> perProtocol, String subject,
    Map<String, MessageAttributeValue> attributes, String groupId, String deduplicationId) {

  /** What a subscription of {@code protocol} receives: its own key's message, else the default. */
  public String messageFor(String protocol) {
    return perProtocol.getOrDefault(protocol, message);
  }
}
