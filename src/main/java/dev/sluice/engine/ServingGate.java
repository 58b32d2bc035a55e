package dev.sluice.engine;

/**
 * Whether calls made for clients may be served now. Read from any thread on every client call, so
 * it must be cheap. Always open in memory mode; in durable mode closed while this server cannot
 * prove it owns its database (see {@code DurableStore#notServingReason}).
 */
@FunctionalInterface
public interface ServingGate {
  /** Why client calls are refused now, or null while they are served. */
  String closedBecause();

  ServingGate OPEN = () -> null;
}
