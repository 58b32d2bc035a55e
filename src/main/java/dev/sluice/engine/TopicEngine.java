package dev.sluice.engine;

import dev.sluice.outbound.OutboundHttp;
import io.vertx.core.Vertx;
import java.util.function.BooleanSupplier;

/**
 * The SNS side of the engine, as {@link QueueEngine} is the SQS side: the action classes the SNS
 * protocol and the engine's action table call, those for the server's own start-up work (the
 * predefined topics, which run before serving may begin and so are not gated), and what signs
 * envelopes. Holds no topic state: that lives on the shards.
 */
public final class TopicEngine {
  private final TopicActions topics;
  private final SubscriptionActions subscriptions;
  private final PublishActions publishes;
  private final TopicActions startupTopics;
  private final SubscriptionActions startupSubscriptions;
  private final TopicSigner signer;
  private final TopicPushes pushes;

  /**
   * {@code clients}: the gated dispatch of client calls; {@code startup}: the server's own, ungated
   * (the same when nothing gates); {@code clustered}: whether the node is a cluster's (which refuses
   * SNS).
   */
  TopicEngine(ShardDispatcher clients, ShardDispatcher startup, ShardRouter router, TopicAccess access,
      BooleanSupplier clustered, TopicSigner signer, Vertx vertx, OutboundHttp outbound) {
    TopicShards shards = new TopicShards(clients, router, access, clustered);
    TopicDeliveries deliveries = new TopicDeliveries(clients, router);
    HttpDeliveries http = new HttpDeliveries(vertx, outbound, deliveries);
    this.topics = new TopicActions(shards);
    this.subscriptions = new SubscriptionActions(shards, signer, http);
    this.publishes = new PublishActions(shards, signer, deliveries, http);
    TopicShards startupShards = startup == clients ? shards : new TopicShards(startup, router, access, clustered);
    this.startupTopics = new TopicActions(startupShards);
    this.startupSubscriptions = new SubscriptionActions(startupShards, signer, http);
    this.signer = signer;
    this.pushes = new TopicPushes(shards);
  }

  /** Push subscribers of topics, for the event-bus bridge. */
  public TopicPushes pushes() {
    return pushes;
  }

  public TopicActions topics() {
    return topics;
  }

  public SubscriptionActions subscriptions() {
    return subscriptions;
  }

  public PublishActions publishes() {
    return publishes;
  }

  /** Topic actions for the server's own start-up work (the predefined topics), as {@link QueueEngine#startupQueues}. */
  public TopicActions startupTopics() {
    return startupTopics;
  }

  public SubscriptionActions startupSubscriptions() {
    return startupSubscriptions;
  }

  /** What signs SNS envelopes, and the certificate subscribers check them with. */
  public TopicSigner signer() {
    return signer;
  }
}
