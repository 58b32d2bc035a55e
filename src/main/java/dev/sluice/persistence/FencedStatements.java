package dev.sluice.persistence;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;

/**
 * One shard's writes of rarely changing definitions (topics, triggers): each statement carries the
 * shard's fence, and they run one after another in the order the shard made them, so that a later
 * state is never overwritten by an earlier one that happened to commit last. Used from its shard's
 * event loop only.
 */
final class FencedStatements {
  private final Pool pool;
  private final Fence fence;
  private Future<Void> last = Future.succeededFuture();

  FencedStatements(Pool pool, Fence fence) {
    this.pool = pool;
    this.fence = fence;
  }

  /** The fence's parameters, for a statement's own to be added after. */
  Tuple parameters() {
    return fence.parameters();
  }

  /**
   * Runs {@code template} after every statement given before it; fails as it does. The template's
   * first {@code %s} is the fence's call, then {@code ownParameters} {@code $%d} placeholders.
   */
  Future<Void> run(String template, int ownParameters, Tuple parameters) {
    Object[] args = new Object[ownParameters + 1];
    args[0] = fence.call(1);
    for (int i = 0; i < ownParameters; i++) {
      args[i + 1] = fence.parameterCount() + 1 + i;
    }
    String sql = String.format(template, args);
    Future<Void> write = last.transform(previous -> pool.preparedQuery(sql).execute(parameters).mapEmpty());
    last = write.transform(done -> Future.succeededFuture()); // a failed write does not stop the next
    return write;
  }
}
