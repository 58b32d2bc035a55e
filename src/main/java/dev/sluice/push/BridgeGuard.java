package dev.sluice.push;

import dev.sluice.auth.Identity;
import dev.sluice.auth.ManagementToken;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetSocket;
import io.vertx.ext.web.handler.sockjs.SockJSSocket;
import io.vertx.ext.bridge.BaseBridgeEvent;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The bridges' event hook, shared by the SockJS and the TCP bridge: gives every connection an id,
 * stamps it on each request so the push service knows who asks, lets a connection register only on
 * delivery addresses it subscribed to, refuses publishing and oversized frames (an {@code err}
 * frame; the connection stays open), and reports closed connections. On the TCP bridge, which has
 * no HTTP request to check first, it also bounds the connections in number, closes one at its
 * first frame over the size limit (before it is buffered) and at its first frame without the
 * management token. (A SockJS connection had its token and Origin checked by the HTTP route that
 * opened it.) Runs on the bridges' event loops; its maps and counter are concurrent.
 */
final class BridgeGuard {
  private final EventBus bus;
  private final PushDirectory directory;
  private final int maxFrameBytes;
  private final SecureRandom random = new SecureRandom();
  private final ConcurrentMap<Object, String> connections = new ConcurrentHashMap<>();
  /** Who each SockJS connection acts as, from the HTTP request that opened it; TCP ones have none. */
  private final ConcurrentMap<Object, Identity> identities = new ConcurrentHashMap<>();
  private final AtomicInteger tcpConnections = new AtomicInteger();
  private final ManagementToken token;
  private final int maxTcpConnections;

  BridgeGuard(EventBus bus, PushDirectory directory, int maxFrameBytes, ManagementToken token, int maxTcpConnections) {
    this.token = token;
    this.bus = bus;
    this.directory = directory;
    this.maxFrameBytes = maxFrameBytes;
    this.maxTcpConnections = maxTcpConnections;
  }

  /** Decides one bridge event of the connection {@code socket}. */
  void handle(BaseBridgeEvent event, Object socket) {
    JsonObject raw = event.getRawMessage();
    String address = raw == null ? null : raw.getString("address");
    switch (event.type()) {
      case SOCKET_CREATED -> {
        connectionOf(socket);
        if (socket instanceof SockJSSocket sockJs && sockJs.routingContext() != null
            && sockJs.routingContext().get(PushBridges.IDENTITY) instanceof Identity identity) {
          identities.put(socket, identity);
        }
        event.complete(true);
      }
      case SOCKET_CLOSED -> {
        closed(socket);
        event.complete(true);
      }
      case SEND -> {
        if (socket instanceof NetSocket tcp && !token.accepts(null, tokenHeader(raw))) {
          event.complete(false); // the bridge answers with an err frame...
          // ...and, once it is written, the connection closes: nothing more is read from a
          // client that did not authenticate.
          tcp.write(Buffer.buffer()).onComplete(written -> tcp.close());
          return;
        }
        if (!PushAddresses.isRequest(address) || raw.toBuffer().length() > maxFrameBytes) {
          event.complete(false);
          return;
        }
        // Only the connection id and who it acts as go through: a client's own headers (any
        // spelling of these, or the TCP bridge's timeout and codec headers) are dropped.
        JsonObject headers = new JsonObject().put(PushAddresses.CONNECTION_HEADER, connectionOf(socket));
        Identity identity = identities.get(socket);
        if (identity != null) {
          headers.put(PushAddresses.ACCOUNT_HEADER, identity.accountId()).put(PushAddresses.REGION_HEADER, identity.region());
          if (identity.accessKeyId() != null) {
            headers.put(PushAddresses.ACCESS_KEY_HEADER, identity.accessKeyId());
          }
        }
        raw.put("headers", headers);
        event.setRawMessage(raw);
        event.complete(true);
      }
      case PUBLISH -> event.complete(false);
      case REGISTER -> {
        String connection = connectionOf(socket);
        // Once per address: the TCP bridge would otherwise stack a consumer per repeat.
        event.complete(address != null && directory.owns(connection, address) && directory.register(address));
      }
      case REGISTERED -> {
        bus.send(PushAddresses.DELIVERY_REGISTERED, address);
        event.complete(true);
      }
      case UNREGISTER -> {
        if (address != null && directory.owns(connectionOf(socket), address)) {
          bus.send(PushAddresses.DELIVERY_UNREGISTERED, address);
        }
        event.complete(true);
      }
      default -> event.complete(true); // pings, frames going out
    }
  }

  private static String tokenHeader(JsonObject raw) {
    return raw.getValue("headers") instanceof JsonObject headers && headers.getValue("token") instanceof String t ? t : null;
  }

  private String connectionOf(Object socket) {
    String known = connections.get(socket);
    if (known != null) {
      return known;
    }
    byte[] b = new byte[16];
    random.nextBytes(b);
    String id = HexFormat.of().formatHex(b);
    String raced = connections.putIfAbsent(socket, id);
    if (raced != null) {
      return raced;
    }
    if (socket instanceof NetSocket tcp) {
      // The TCP bridge reports no closing, and its socket's close handler is its own: watch the
      // channel itself (outside the map update: a closed channel runs this at once).
      TcpBridgeSockets.onClose(tcp, () -> closed(socket));
    }
    return id;
  }

  /**
   * A new TCP bridge connection, before the bridge reads from it: counted, closed past the limit,
   * and given its frame-size limit.
   */
  boolean admitTcp(NetSocket tcp) {
    if (tcpConnections.incrementAndGet() > maxTcpConnections) {
      tcpConnections.decrementAndGet();
      tcp.close();
      return false;
    }
    TcpBridgeSockets.onClose(tcp, tcpConnections::decrementAndGet);
    TcpBridgeSockets.limitFrames(tcp, maxFrameBytes);
    return true;
  }

  /**
   * The server is stopping: closes every bridge connection. An HTTP server's graceful shutdown
   * waits for its WebSockets to close, and a subscriber's socket would otherwise stay open.
   */
  void closeAll() {
    for (Object socket : connections.keySet()) {
      if (socket instanceof SockJSSocket sockJs) {
        sockJs.close();
      } else if (socket instanceof NetSocket tcp) {
        tcp.close();
      }
    }
  }

  private void closed(Object socket) {
    identities.remove(socket);
    String id = connections.remove(socket);
    if (id != null) {
      bus.send(PushAddresses.CONNECTION_CLOSED, id);
    }
  }
}
