package dev.sluice.console;

import dev.sluice.api.QueueKey;
import dev.sluice.api.SqsException;
import io.vertx.core.json.JsonObject;

/**
 * One queue's stream: its row and history first, then per tick its row and the tick's point;
 * {@code gone} once the queue is no longer sampled (deleted, or made again as a new generation).
 * The queue is pinned while the stream is open, so its history is kept.
 */
public final class QueueStream implements StreamView {
  private final QueueKey key;
  private final String baseUrl;
  private long generation;

  public QueueStream(QueueKey key, String baseUrl) {
    this.key = key;
    this.baseUrl = baseUrl;
  }

  @Override
  public StreamEvent open(ConsoleHistory h) {
    QueueRow r = h.queue(key);
    if (r == null) {
      throw SqsException.queueDoesNotExist();
    }
    generation = r.generation;
    h.pin(key);
    return new StreamEvent("snapshot", new JsonObject().put("row", ConsoleViews.row(h, r, baseUrl, true))
        .put("history", ConsoleViews.history(h, r)), false);
  }

  @Override
  public StreamEvent tick(ConsoleHistory h) {
    QueueRow r = h.queue(key);
    if (r == null || r.generation != generation) {
      return new StreamEvent("gone", new JsonObject().put("time", h.timeMillis()).put("account", key.accountId())
          .put("region", key.region()).put("name", key.name()), true);
    }
    JsonObject point = new JsonObject().put("visible", r.visible).put("inflight", r.inflight)
        .put("delayed", r.delayed).put("arrived", r.arrivedDelta).put("received", r.receivedDelta)
        .put("deleted", r.deletedDelta);
    return new StreamEvent("tick", new JsonObject().put("time", h.timeMillis())
        .put("row", ConsoleViews.row(h, r, baseUrl, false)).put("point", point), false);
  }

  @Override
  public void close(ConsoleHistory h) {
    h.unpin(key);
  }
}
