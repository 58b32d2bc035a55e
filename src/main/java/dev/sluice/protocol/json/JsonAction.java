package dev.sluice.protocol.json;

import dev.sluice.api.Caller;
import dev.sluice.engine.CallerGone;
import dev.sluice.engine.QueueEngine;
import io.vertx.core.Future;

/** One SQS action on the JSON protocol: decode the request, call the engine, encode the answer. */
@FunctionalInterface
interface JsonAction {
  /** The response body, an object ({@code {}} for actions without output). */
  Future<JsonWriter> invoke(QueueEngine engine, Caller caller, JsonReader in, CallerGone gone);
}
