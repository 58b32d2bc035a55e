package dev.sluice.loadtest;

import io.vertx.core.json.JsonObject;

/**
 * A trigger's pollers and invokes in flight as its admin API answer shows them ({@code Concurrency}),
 * sampled during a phase of the trigger benchmark: whether the pollers grew as the design says (five
 * more a second while receives come back full) is read from the trace.
 */
final class PollerSamples {
  int maxPollers;
  int maxInvoking;
  final StringBuilder trace = new StringBuilder();

  void add(JsonObject mapping) {
    JsonObject c = mapping.getJsonObject("Concurrency", new JsonObject());
    int pollers = c.getInteger("Pollers", 0);
    maxPollers = Math.max(maxPollers, pollers);
    maxInvoking = Math.max(maxInvoking, c.getInteger("Invoking", 0));
    trace.append(trace.length() == 0 ? "" : " ").append(pollers);
  }
}
