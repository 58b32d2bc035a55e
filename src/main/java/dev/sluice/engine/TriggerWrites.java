package dev.sluice.engine;

import dev.sluice.api.triggers.LambdaErrorCode;
import dev.sluice.api.triggers.LambdaException;
import dev.sluice.persistence.TriggerStore;
import dev.sluice.triggers.Trigger;
import io.vertx.core.Future;
import java.util.UUID;

/**
 * One shard's trigger changes on their way to PostgreSQL ({@link TriggerStore}): a change is
 * answered once written, whatever the durability setting, since a trigger acknowledged and then lost
 * would silently stop a queue's consumer. A write that fails is the retryable ServiceException, and
 * the caller undoes the change in memory. {@link #NONE} in memory mode. Used on its shard's loop.
 */
class TriggerWrites {
  private static final System.Logger LOG = System.getLogger(TriggerWrites.class.getName());

  /** Memory mode: nothing is written. */
  static final TriggerWrites NONE = new TriggerWrites(null);

  private final TriggerStore store;

  TriggerWrites(TriggerStore store) {
    this.store = store;
  }

  Future<Void> save(Trigger t) {
    return store == null ? Future.succeededFuture() : written(store.save(TriggerRows.rowOf(t)));
  }

  Future<Void> delete(UUID id) {
    return store == null ? Future.succeededFuture() : written(store.delete(id));
  }

  private static Future<Void> written(Future<Void> write) {
    return write.recover(failure -> {
      LOG.log(System.Logger.Level.WARNING, "A trigger change was not written to PostgreSQL: " + failure.getMessage());
      return Future.failedFuture(new LambdaException(LambdaErrorCode.SERVICE,
          "The change could not be written to PostgreSQL; retry it."));
    });
  }
}
