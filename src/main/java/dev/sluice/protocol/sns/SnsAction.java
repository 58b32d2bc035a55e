package dev.sluice.protocol.sns;

import dev.sluice.api.Caller;
import dev.sluice.engine.CallerGone;
import dev.sluice.engine.EngineAction;
import dev.sluice.engine.QueueEngine;
import dev.sluice.protocol.query.XmlWriter;
import io.vertx.core.Future;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * One SNS action: how its request record is read from the Query members, the engine action that
 * answers it (run where its topic is: {@link QueueEngine#run}) and how its result's members are
 * written inside {@code <XResult>} (null for an action whose result is empty). Immutable.
 */
final class SnsAction<Q, R> {
  private final String name;
  private final Function<SnsReader, Q> decoder;
  private final EngineAction<Q, R> call;
  private final BiConsumer<R, XmlWriter> result;

  SnsAction(String name, Function<SnsReader, Q> decoder, EngineAction<Q, R> call, BiConsumer<R, XmlWriter> result) {
    if (!name.equals(call.name())) {
      throw new IllegalArgumentException(name + " answered by the engine action " + call.name());
    }
    this.name = name;
    this.decoder = decoder;
    this.call = call;
    this.result = result;
  }

  String name() {
    return name;
  }

  /** Decodes and calls the engine; a refusal thrown on the way comes back as the failed future. */
  Future<R> invoke(QueueEngine engine, Caller caller, SnsReader in, CallerGone gone) {
    try {
      return engine.run(call, caller, decoder.apply(in), gone);
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
  }

  /** The members of {@code <XResult>}, or null when the result is empty. */
  String resultOf(R response) {
    if (result == null) {
      return null;
    }
    XmlWriter out = new XmlWriter();
    result.accept(response, out);
    return out.toString();
  }

  @Override
  public String toString() {
    return name;
  }
}
