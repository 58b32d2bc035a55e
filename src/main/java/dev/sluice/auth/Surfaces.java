package dev.sluice.auth;

import dev.sluice.config.HttpConfig;
import dev.sluice.config.SluiceConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Every surface Sluice exposes and what guards it, decided once from the configuration: the SQS
 * APIs by SigV4 ({@code credentials}) and the regions served ({@code sqs.regions}),
 * {@code /metrics} and both push bridges by the management token, the SockJS bridge also by the
 * browser's Origin (and open, in place of the token, to a URL presigned by a credential, which then
 * acts within its permissions). The HTTP routes and the TCP bridge take their guards from here, and the start-up log
 * lists what it leaves open. Health probes and the example page are public by design: they hold no
 * data. Immutable.
 */
public final class Surfaces {
  private final Authenticator sqs;
  private final ManagementToken token;
  private final OriginPolicy origins;
  private final List<String> open;
  private final boolean openBeyondLoopback;

  private Surfaces(Authenticator sqs, ManagementToken token, OriginPolicy origins, List<String> open,
      boolean openBeyondLoopback) {
    this.sqs = sqs;
    this.token = token;
    this.origins = origins;
    this.open = open;
    this.openBeyondLoopback = openBeyondLoopback;
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
      if (cfg.push().enabled()) {
        open.add("the push bridge at " + cfg.push().path() + " (no managementToken: anyone who reaches it can"
            + " read and delete messages)");
        if (cfg.push().tcpPort() > 0) {
          open.add("the TCP bridge on " + cfg.push().tcpHost() + ":" + cfg.push().tcpPort() + " (no managementToken)");
          tcpBeyondLoopback = !HttpConfig.isLoopback(cfg.push().tcpHost());
        }
      }
    }
    OriginPolicy origins = new OriginPolicy(cfg.push().allowedOrigins());
    if (cfg.push().enabled() && origins.any()) {
      open.add("the push bridge to pages of any site (push.allowedOrigins: *)");
    }
    boolean beyondLoopback = !open.isEmpty() && (httpBeyondLoopback || tcpBeyondLoopback);
    return new Surfaces(Authenticator.of(cfg.security(), cfg.sqs()), token, origins, List.copyOf(open), beyondLoopback);
  }

  /** Who may call the SQS APIs. */
  public Authenticator sqs() {
    return sqs;
  }

  /** The bearer token of {@code /metrics} and both push bridges. */
  public ManagementToken managementToken() {
    return token;
  }

  /** The browser pages that may open the SockJS bridge. */
  public OriginPolicy bridgeOrigins() {
    return origins;
  }

  /** What is reachable without any credential, in words for the log; empty when everything is guarded. */
  public List<String> open() {
    return open;
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
