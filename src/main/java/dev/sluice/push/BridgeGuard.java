package dev.sluice.push;

import io.vertx.core.eventbus.EventBus;
import io.vertx.core.internal.net.NetSocketInternal;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.bridge.BaseBridgeEvent;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The bridges' event hook, shared by the SockJS and the TCP bridge: gives every connection an id,
 * stamps it on each request so the push service knows who asks, lets a connection register only on
 * delivery addresses it subscribed to, refuses publishing and oversized frames (an {@code err}
 * frame; the connection stays open), and reports closed connections. Runs on the bridges' event
 * loops; its maps are concurrent.
 */
final class BridgeGuard {
  private final EventBus bus;
  private final PushDirectory directory;
  private final int maxFrameBytes;
  private final SecureRandom random = new SecureRandom();
  private final ConcurrentMap<Object, String> connections = new ConcurrentHashMap<>();

  BridgeGuard(EventBus bus, PushDirectory directory, int maxFrameBytes) {
    this.bus = bus;
    this.directory = directory;
    this.maxFrameBytes = maxFrameBytes;
  }

  /** Decides one bridge event of the connection {@code socket}. */
  void handle(BaseBridgeEvent event, Object socket) {
    JsonObject raw = event.getRawMessage();
    String address = raw == null ? null : raw.getString("address");
    switch (event.type()) {
      case SOCKET_CREATED -> {
        connectionOf(socket);
        event.complete(true);
      }
      case SOCKET_CLOSED -> {
        closed(socket);
        event.complete(true);
      }
      case SEND -> {
        if (!PushAddresses.isRequest(address) || raw.encode().length() > maxFrameBytes) {
          event.complete(false);
          return;
        }
        JsonObject headers = raw.getValue("headers") instanceof JsonObject h ? h : new JsonObject();
        headers.put(PushAddresses.CONNECTION_HEADER, connectionOf(socket));
        raw.put("headers", headers);
        event.setRawMessage(raw);
        event.complete(true);
      }
      case PUBLISH -> event.complete(false);
      case REGISTER -> event.complete(address != null && directory.owns(connectionOf(socket), address));
      case REGISTERED -> {
        bus.send(PushAddresses.DELIVERY_REGISTERED, address);
        event.complete(true);
      }
      default -> event.complete(true); // pings, unregistering, frames going out
    }
  }

  private String connectionOf(Object socket) {
    return connections.computeIfAbsent(socket, s -> {
      if (s instanceof NetSocketInternal tcp) {
        // The TCP bridge reports no closing, and its socket's close handler is its own: watch the
        // channel itself.
        tcp.channelHandlerContext().channel().closeFuture().addListener(f -> closed(s));
      }
      byte[] b = new byte[16];
      random.nextBytes(b);
      return HexFormat.of().formatHex(b);
    });
  }

  private void closed(Object socket) {
    String id = connections.remove(socket);
    if (id != null) {
      bus.send(PushAddresses.CONNECTION_CLOSED, id);
    }
  }

}
