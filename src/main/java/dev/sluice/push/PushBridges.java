package dev.sluice.push;

import dev.sluice.auth.ManagementToken;
import dev.sluice.config.HttpConfig;
import dev.sluice.config.PushConfig;
import dev.sluice.config.SqsConfig;
import dev.sluice.engine.QueueEngine;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetServerOptions;
import io.vertx.ext.bridge.BridgeOptions;
import io.vertx.ext.bridge.PermittedOptions;
import io.vertx.ext.eventbus.bridge.tcp.TcpEventBusBridge;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.sockjs.SockJSBridgeOptions;
import io.vertx.ext.web.handler.sockjs.SockJSHandler;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Push delivery wired up: the push service, the SockJS bridge every HTTP verticle mounts on its
 * port, and the TCP bridge when {@code push.tcpPort} is set.
 */
public final class PushBridges {
  /** Delivery addresses are the prefix and 32 hex digits. */
  static final String DELIVERY_REGEX = PushAddresses.DELIVERY_PREFIX.replace(".", "\\.") + "[0-9a-f]{32}";
  /**
   * The routing-context key under which the HTTP route's guard leaves who a SockJS connection acts
   * as ({@link dev.sluice.auth.Identity}): the credential its URL was presigned with, or the default
   * account for a management-token connection.
   */
  public static final String IDENTITY = "sluice.bridge.identity";
  /** A client registers on few addresses: one per subscription. */
  static final int MAX_HANDLERS_PER_SOCKET = 1000;

  private final PushConfig config;
  private final BridgeGuard guard;
  private final Vertx vertx;
  private final AtomicInteger openSubscriptions = new AtomicInteger();
  private TcpEventBusBridge tcp;

  private PushBridges(Vertx vertx, PushConfig config, BridgeGuard guard) {
    this.vertx = vertx;
    this.config = config;
    this.guard = guard;
  }

  /**
   * {@code sqs}: the default account and region subscribers act in, and the regions they may name;
   * {@code token}: the management token TCP bridge clients must put in each frame's headers (not
   * required when it is empty); {@code http}: the connection limit and idle timeout, which the TCP
   * bridge takes over from the HTTP port.
   */
  public static Future<PushBridges> start(Vertx vertx, QueueEngine engine, PushConfig config, SqsConfig sqs,
      ManagementToken token, HttpConfig http) {
    PushDirectory directory = new PushDirectory();
    PushBridges bridges = new PushBridges(vertx, config,
        new BridgeGuard(vertx.eventBus(), directory, config.maxFrameBytes(), token, http.maxConnections()));
    return vertx.deployVerticle(
            new PushService(engine, directory, sqs, config.maxPrefetch(), bridges.openSubscriptions))
        .compose(id -> config.tcpPort() > 0 ? bridges.startTcp(vertx, http.idleTimeoutMillis()) : Future.succeededFuture())
        .map(bridges);
  }

  /**
   * A TCP bridge client that sends nothing (not even the protocol's ping) for the idle timeout is
   * disconnected: its connection would otherwise be held for ever.
   */
  private Future<Void> startTcp(Vertx vertx, int idleTimeoutMillis) {
    NetServerOptions options = new NetServerOptions().setReadIdleTimeout(idleTimeoutMillis)
        .setIdleTimeoutUnit(TimeUnit.MILLISECONDS);
    tcp = TcpEventBusBridge.create(vertx, permissions(new BridgeOptions()), options,
        event -> guard.handle(event, event.socket()));
    TcpBridgeSockets.admitThrough(tcp, guard::admitTcp);
    return tcp.listen(config.tcpPort(), config.tcpHost()).mapEmpty();
  }

  /** The SockJS bridge as a router to mount at {@code push.path}; one per HTTP verticle. */
  public Router sockJsRouter(Vertx vertx) {
    SockJSBridgeOptions options = permissions(new SockJSBridgeOptions());
    options.setMaxHandlersPerSocket(MAX_HANDLERS_PER_SOCKET);
    BridgeLogFilter.install();
    return SockJSHandler.create(vertx).bridge(options, event -> guard.handle(event, event.socket()));
  }

  /** Open subscriptions right now, from any thread (for the metrics). */
  public int openSubscriptions() {
    return openSubscriptions.get();
  }

  /**
   * The server is stopping: the TCP bridge stops listening, every subscription ends (its
   * unacknowledged messages become visible at once), new ones are refused, and then every bridge
   * connection is closed.
   */
  public Future<Void> stop() {
    Future<Void> tcpClosed = tcp == null ? Future.succeededFuture() : tcp.close();
    Future<Void> ended = vertx.eventBus().request(PushAddresses.STOPPING, null).mapEmpty();
    return Future.join(tcpClosed, ended).<Void>mapEmpty().onComplete((ok, failure) -> guard.closeAll());
  }

  /**
   * The server stops serving for a while (false: every subscription ends with a ServiceUnavailable
   * error on its address, its unacknowledged messages visible at once, and new ones are refused) or
   * serves again (true: subscribing works again). Bridge connections stay open.
   */
  public Future<Void> serving(boolean serving) {
    return vertx.eventBus().request(PushAddresses.SERVING, serving).mapEmpty();
  }

  public String path() {
    return config.path();
  }

  public int maxFrameBytes() {
    return config.maxFrameBytes();
  }

  private static <T extends BridgeOptions> T permissions(T options) {
    for (String address : PushAddresses.REQUESTS) {
      options.addInboundPermitted(new PermittedOptions().setAddress(address));
    }
    options.addOutboundPermitted(new PermittedOptions().setAddressRegex(DELIVERY_REGEX));
    return options;
  }
}
