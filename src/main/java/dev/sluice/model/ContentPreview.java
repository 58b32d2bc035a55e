package dev.sluice.model;

import dev.sluice.api.PeekMessages.PeekedAttribute;
import java.util.Map;

/**
 * What the console's peek shows of a message's content (design/console.md §2.5), read from its
 * record by {@link PackedContent#preview} without decoding more than it shows: the body's first
 * bytes cut on a character boundary with its whole length, each attribute value cut likewise, and
 * the ids in full (each is at most a few hundred bytes). {@code shownBytes}: the body and attribute
 * value bytes it holds, what a page of previews is bounded by.
 */
public record ContentPreview(
    String body,
    int bodyBytes,
    boolean bodyTruncated,
    Map<String, PeekedAttribute> attributes,
    String traceHeader,
    String senderId,
    String groupId,
    String deduplicationId,
    String deadLetterSourceArn,
    int shownBytes) {}
