package dev.sluice.persistence;

import io.vertx.core.Future;
import java.util.function.Consumer;

/**
 * How this server holds its database: alone ({@link DatabaseOwnership}), or as one node of a
 * cluster ({@link ClusterDatabase}), whose nodes share it and own shards of it instead. Either way
 * a write carrying an epoch the database moved past is refused, and the server learns of it here.
 */
interface DatabaseHold {
  /** From any thread: why this server may not serve client calls now, or null when it may. */
  String notServingReason();

  /** Told, on the holder's context, each time serving starts (true) or stops (false). */
  void onServingChanged(Consumer<Boolean> listener);

  /** Completes when another server has claimed the database: this one will never serve again. */
  Future<Void> fenced();

  /** From any thread: PostgreSQL refused a write made with the database epoch {@code attemptEpoch}. */
  void writeRefused(long attemptEpoch);

  /** Lets the database go, {@code clean}: nothing of this server is left unwritten. */
  Future<Void> release(boolean clean);
}
