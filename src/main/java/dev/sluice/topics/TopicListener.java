package dev.sluice.topics;

import dev.sluice.api.topics.TopicNotification;
import dev.sluice.topics.filter.FilterPolicy;
import java.util.function.Consumer;

/**
 * An ephemeral subscriber of a topic: a push subscription over the event-bus bridge, held by its
 * topic's shard in memory only (not listed, not kept across a restart). {@code filter} (or null)
 * picks what it is given; {@code sink} is given each publish it accepts, and {@code ended} is told
 * when the topic is deleted. Both are called on the topic's shard loop, so they hand over at once.
 */
public record TopicListener(String id, FilterPolicy filter, Consumer<TopicNotification> sink, Runnable ended) {}
