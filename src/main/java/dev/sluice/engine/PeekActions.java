package dev.sluice.engine;

import dev.sluice.api.Caller;
import dev.sluice.api.PeekMessages;
import io.vertx.core.Future;

/**
 * The console's peek (design/console.md §2.5): one call on the shard that owns the queue, bounded by
 * the peek limits, that reads and changes nothing, so it is answered at once rather than through a
 * commit. Checked as ReceiveMessage by the one owner check, since it reads message contents.
 * Stateless.
 */
public final class PeekActions {
  private final OwningShard owningShard;

  PeekActions(OwningShard owningShard) {
    this.owningShard = owningShard;
  }

  public Future<PeekMessages.Response> peekMessages(Caller c, PeekMessages.Request r) {
    return owningShard.onQueueUrl(c, "ReceiveMessage", r.queueUrl(), (s, q) -> q.peek(r, s.now()));
  }
}
