package dev.sluice.cluster;

import dev.sluice.config.ClusterConfig;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;

/**
 * The clustered event bus's options (design page cluster.md §2.17, §2.18), from
 * {@link ClusterConfig}, without starting anything: bound to {@code cluster.host}, reached at the
 * advertised address, and with {@code cluster.tls*} set, mutual TLS that trusts only the
 * configured CA.
 */
public final class EventBusSettings {
  private EventBusSettings() {}

  public static EventBusOptions of(ClusterConfig c) {
    EventBusOptions options = new EventBusOptions().setHost(c.host()).setPort(c.eventBusPort())
        .setClusterPublicHost(c.advertisedHost().isEmpty() ? c.host() : c.advertisedHost());
    if (c.advertisedEventBusPort() != 0) {
      // Left at its default (-1), Vert.x advertises the port it bound, which is what 0 means here.
      options.setClusterPublicPort(c.advertisedEventBusPort());
    }
    if (c.tls()) {
      options.setSsl(true)
          .setKeyCertOptions(new PemKeyCertOptions().setKeyPath(c.tlsKeyPath()).setCertPath(c.tlsCertPath()))
          .setTrustOptions(new PemTrustOptions().addCertPath(c.tlsCaPath()))
          .setClientAuth(ClientAuth.REQUIRED)
          // The event bus trusts every certificate unless told otherwise (EventBusOptions.DEFAULT_TRUST_ALL is
          // true), which would let anyone on the network path act as a node.
          .setTrustAll(false);
    }
    return options;
  }
}
