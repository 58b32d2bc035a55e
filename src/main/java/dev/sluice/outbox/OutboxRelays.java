package dev.sluice.outbox;

import dev.sluice.config.OutboxConfig;
import dev.sluice.config.OutboxSource;
import dev.sluice.engine.QueueEngine;
import dev.sluice.metrics.OutboxMetrics;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The outbox relays of this server: one {@link OutboxRelay} verticle per configured source,
 * deployed at start-up and undeployed at stop. Immutable once started; its relays own their state.
 */
public final class OutboxRelays {
  private final Vertx vertx;
  private final List<OutboxRelay> relays;
  private final List<Future<String>> deployments;

  private OutboxRelays(Vertx vertx, List<OutboxRelay> relays, List<Future<String>> deployments) {
    this.vertx = vertx;
    this.relays = relays;
    this.deployments = deployments;
  }

  /** Starts a relay per source of {@code config} that is relayed, each sending through {@code engine}. */
  public static Future<OutboxRelays> start(Vertx vertx, QueueEngine engine, OutboxConfig config,
      OutboxMetrics metrics) {
    return start(vertx, config.relayed(),
        s -> new EngineRelayTarget(engine, s.name(), s.accountId(), s.region()), metrics);
  }

  /**
   * Starts a relay per source, each sending through the target {@code targets} makes for it.
   * Completes once every relay is deployed; none waits for its database (an application database
   * that is down must not keep Sluice from serving: its relay keeps trying).
   */
  static Future<OutboxRelays> start(Vertx vertx, List<OutboxSource> sources, Function<OutboxSource, RelayTarget> targets,
      OutboxMetrics metrics) {
    List<OutboxRelay> relays = new ArrayList<>();
    List<Future<String>> deployments = new ArrayList<>();
    for (OutboxSource s : sources) {
      OutboxRelay relay = new OutboxRelay(s, targets.apply(s), metrics);
      relays.add(relay);
      deployments.add(vertx.deployVerticle(relay));
    }
    return Future.all(deployments).map(all -> new OutboxRelays(vertx, List.copyOf(relays), List.copyOf(deployments)));
  }

  /** Every source's status on this node, in the configuration's order. */
  public List<OutboxStatus> sources() {
    return relays.stream().map(OutboxRelay::status).toList();
  }

  /** Stops every relay: rounds under way finish (commit or roll back), then their sessions close. */
  public Future<Void> stop() {
    List<Future<Void>> undeployed = new ArrayList<>();
    for (Future<String> d : deployments) {
      undeployed.add(d.compose(vertx::undeploy));
    }
    return Future.join(undeployed).mapEmpty();
  }
}
