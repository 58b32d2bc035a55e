package dev.sluice.console;

import dev.sluice.api.QueueKey;
import io.vertx.core.json.JsonObject;

/**
 * One queue's stream: its row and history first, then per tick its row and the tick's point;
 * {@code gone} once the queue is no longer sampled (deleted, or made again as a new generation).
 * The queue is pinned while the stream is open, so its history is kept. A queue made since the
 * last tick is not sampled yet: its snapshot comes with the first tick that has it, and if
 * {@link #TICKS_TO_APPEAR} ticks pass without it, it does not exist ({@code gone}).
 */
public final class QueueStream implements StreamView {
  private final QueueKey key;
  private final String baseUrl;
  /** Two: the first tick may have been sampling already when the page opened the stream. */
  static final int TICKS_TO_APPEAR = 2;
  private long generation;
  private boolean shown;
  private int ticksWaited;

  public QueueStream(QueueKey key, String baseUrl) {
    this.key = key;
    this.baseUrl = baseUrl;
  }

  @Override
  public StreamEvent open(ConsoleHistory h) {
    h.pin(key);
    return snapshot(h);
  }

  /** The snapshot, or null while the queue is not sampled yet. */
  private StreamEvent snapshot(ConsoleHistory h) {
    QueueRow r = h.queue(key);
    if (r == null) {
      return null;
    }
    shown = true;
    generation = r.generation;
    return new StreamEvent("snapshot", new JsonObject().put("row", ConsoleViews.row(h, r, baseUrl, true))
        .put("history", ConsoleViews.history(h, r)), false);
  }

  @Override
  public StreamEvent tick(ConsoleHistory h) {
    if (!shown) {
      StreamEvent first = snapshot(h);
      if (first != null || ++ticksWaited < TICKS_TO_APPEAR) {
        return first;
      }
    }
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
