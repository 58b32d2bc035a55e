package dev.sluice.cluster;

import dev.sluice.engine.QueueEngine;
import io.vertx.core.Context;
import java.nio.charset.StandardCharsets;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Connects a cluster node's engine to the other nodes (design page cluster.md, §2.7–2.10): calls
 * for shards held elsewhere are forwarded ({@link Forwarder}), and calls forwarded here are run
 * ({@link ForwardedCalls}), every frame authenticated with the cluster's secret.
 */
public final class Forwarding {
  private Forwarding() {}

  /**
   * Starts forwarding for {@code engine}; forwarded calls run on {@code serving}. {@code secret}
   * is {@code cluster.secret}; when it is empty (allowed on loopback only) the frames are
   * authenticated with a key derived from {@code databaseKey}, the receipt-handle key every node
   * of the cluster reads from its database.
   */
  public static void start(ClusterNode node, ShardManager shards, QueueEngine engine, Context serving, String secret,
      byte[] databaseKey, long retryMillis) {
    ClusterLink link = new ClusterLink(node, secret.isEmpty() ? derived(databaseKey)
        : secret.getBytes(StandardCharsets.UTF_8));
    new ForwardedCalls(link, engine, shards, serving);
    engine.connect(new Forwarder(link, shards.routing(), retryMillis));
  }

  private static byte[] derived(byte[] databaseKey) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(databaseKey, "HmacSHA256"));
      return mac.doFinal("sluice cluster frames".getBytes(StandardCharsets.UTF_8));
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }
}
