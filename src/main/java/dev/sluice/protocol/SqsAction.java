package dev.sluice.protocol;

import dev.sluice.api.Caller;
import dev.sluice.engine.CallerGone;
import dev.sluice.engine.EngineAction;
import dev.sluice.engine.QueueEngine;
import io.vertx.core.Future;
import java.util.function.Function;

/**
 * One SQS action, independent of the wire protocol: how its request record is decoded from the
 * members and which engine action answers it (run where its queue is: {@link QueueEngine#run}).
 * Each protocol renders the response record its own way (JSON, Query XML). {@code R} is
 * {@link Void} for actions without output. Immutable.
 */
public final class SqsAction<Q, R> {
  private final String name;
  private final Function<Members, Q> decoder;
  private final EngineAction<Q, R> call;
  private final boolean hasOutput;

  SqsAction(String name, Function<Members, Q> decoder, EngineAction<Q, R> call, boolean hasOutput) {
    if (!name.equals(call.name())) {
      throw new IllegalArgumentException(name + " answered by the engine action " + call.name());
    }
    this.name = name;
    this.decoder = decoder;
    this.call = call;
    this.hasOutput = hasOutput;
  }

  public String name() {
    return name;
  }

  /** False for actions answered with no result (an empty JSON object, no {@code <…Result>}). */
  public boolean hasOutput() {
    return hasOutput;
  }

  public Q decode(Members in) {
    return decoder.apply(in);
  }

  /** Decodes and calls the engine; a refusal thrown on the way comes back as the failed future. */
  public Future<R> invoke(QueueEngine engine, Caller caller, Members in, CallerGone gone) {
    try {
      return engine.run(call, caller, decoder.apply(in), gone);
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
  }

  @Override
  public String toString() {
    return name;
  }
}
