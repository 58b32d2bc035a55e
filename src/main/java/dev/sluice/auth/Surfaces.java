package dev.sluice.auth;

import dev.sluice.config.ClusterConfig;
import dev.sluice.config.HttpConfig;
import dev.sluice.config.SluiceConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Every surface Sluice exposes and what guards it, decided once from the configuration: the SQS
 * APIs by SigV4 ({@code credentials}) and the regions served ({@code sqs.regions}),
 * {@code /metrics}, the triggers' admin API, both push bridges and the web console's API by the management token
 * (the console, without one, by the {@code Host} it is reached at: {@link ConsolePolicy}), the SockJS bridge also by the
 * browser's Origin (and open, in place of the token, to a URL presigned by a credential, which then
 * acts within its permissions). The HTTP routes and the TCP bridge take their guards from here, and the start-up log
 * lists what it leaves open. Health probes and the example page are public by design: they hold no
 * data. In cluster mode, two more ports face the other nodes ({@link #clusterPorts}). Immutable.
 */
public final class Surfaces {
  private final Authenticator sqs;
  private final ManagementToken token;
  private final OriginPolicy origins;
  private final List<String> open;
  private final boolean openBeyondLoopback;
  private final List<String> clusterPorts;
  private final ConsolePolicy console;

  private Surfaces(Authenticator sqs, ManagementToken token, OriginPolicy origins, List<String> open,
      boolean openBeyondLoopback, List<String> clusterPorts, ConsolePolicy console) {
    this.sqs = sqs;
    this.token = token;
    this.origins = origins;
    this.open = open;
    this.openBeyondLoopback = openBeyondLoopback;
    this.clusterPorts = clusterPorts;
    this.console = console;
  }

  public static Surfaces of(SluiceConfig cfg) {
    Map<String, String> credentials = cfg.security().credentials();
    ManagementToken token = new ManagementToken(cfg.security().managementToken());
    List<String> open = new ArrayList<>();
    boolean httpBeyondLoopback = !HttpConfig.isLoopback(cfg.http().host());
    boolean tcpBeyondLoopback = false;
    if (credentials.isEmpty()) {
      open.add("the SQS APIs (no credentials: any signature or none is accepted)");
    }
    if (!token.required()) {
      if (cfg.ops().metricsEnabled()) {
        open.add("/metrics (no managementToken)");
      }
      if (!cfg.cluster().enabled() && cfg.invoke().enabled()) {
        open.add("the triggers' admin API at /2015-03-31/event-source-mappings (no managementToken: anyone who"
            + " reaches it can have the default account's messages posted to any URL)");
      }
      if (cfg.push().enabled()) {
        open.add("the push bridge at " + cfg.push().path() + " (no managementToken: anyone who reaches it can"
            + " read and delete messages)");
        if (cfg.push().tcpPort() > 0) {
          open.add("the TCP bridge on " + cfg.push().tcpHost() + ":" + cfg.push().tcpPort() + " (no managementToken)");
          tcpBeyondLoopback = !HttpConfig.isLoopback(cfg.push().tcpHost());
        }
      }
      if (cfg.console().enabled()) {
        open.add("the console at /console (no managementToken: anyone who reaches it can read, send, purge and"
            + " delete the default account's queues)");
      }
    }
    OriginPolicy origins = new OriginPolicy(cfg.push().allowedOrigins());
    if (cfg.push().enabled() && origins.any()) {
      open.add("the push bridge to pages of any site (push.allowedOrigins: *)");
    }
    List<String> clusterPorts = clusterPorts(cfg.cluster());
    if (cfg.cluster().enabled() && cfg.cluster().secret().isEmpty()) {
      // Allowed on a loopback cluster.host only (the configuration refuses it beyond), so never beyond loopback here.
      open.add("the cluster event-bus port on " + eventBusAddress(cfg.cluster()) + " (no cluster.secret: a process on"
          + " this machine can forward calls to the node as any caller)");
    }
    boolean beyondLoopback = !open.isEmpty() && (httpBeyondLoopback || tcpBeyondLoopback);
    ConsolePolicy console = new ConsolePolicy(cfg.console().enabled(), token, cfg.http().publicBaseUrl());
    return new Surfaces(Authenticator.of(cfg.security(), cfg.sqs()), token, origins, List.copyOf(open), beyondLoopback,
        clusterPorts, console);
  }

  /**
   * What the two cluster ports carry and what guards them (design/cluster.md §2.18). The Hazelcast
   * port is not in {@link #open}: no setting can guard it, only the network can, so a warning at every
   * start would be noise; these lines say so instead.
   */
  private static List<String> clusterPorts(ClusterConfig c) {
    if (!c.enabled()) {
      return List.of();
    }
    return List.of(
        "the Hazelcast member port on " + c.host() + ":" + c.port() + ": membership and the event bus's address map,"
            + " no queue data; open-source Hazelcast authenticates no member, so whoever reaches it can join and make"
            + " the cluster unavailable, but cannot forge a call or take a shard's lease (held in PostgreSQL): keep it"
            + " on a private network",
        "the event-bus port on " + eventBusAddress(c) + ": calls forwarded between nodes, "
            + (c.secret().isEmpty() ? "unauthenticated (no cluster.secret, loopback only)"
                : "each frame authenticated by an HMAC with cluster.secret and checked for its member and sequence")
            + (c.tls() ? "; mutual TLS (cluster.tls*)" : "; readable on the network path (no cluster.tls*)"));
  }

  private static String eventBusAddress(ClusterConfig c) {
    return c.host() + (c.eventBusPort() == 0 ? " (a free port)" : ":" + c.eventBusPort());
  }

  /** Who may call the SQS APIs. */
  public Authenticator sqs() {
    return sqs;
  }

  /** The bearer token of {@code /metrics}, the triggers' admin API, both push bridges and the console. */
  public ManagementToken managementToken() {
    return token;
  }

  /** The browser pages that may open the SockJS bridge. */
  public OriginPolicy bridgeOrigins() {
    return origins;
  }

  /** Who may use the web console's API, and whether it is served. */
  public ConsolePolicy console() {
    return console;
  }

  /** What is reachable without any credential, in words for the log; empty when everything is guarded. */
  public List<String> open() {
    return open;
  }

  /** The Hazelcast and event-bus ports with what guards each, in words for the log; empty outside cluster mode. */
  public List<String> clusterPorts() {
    return clusterPorts;
  }

  /**
   * Whether something open listens beyond loopback, where other machines reach it: that is worth a
   * warning at every start. Open on loopback only is the local default (as with other local SQS
   * tools), reported without one, so that a clean start prints no warning.
   */
  public boolean openBeyondLoopback() {
    return openBeyondLoopback;
  }
}
