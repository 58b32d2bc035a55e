package dev.sluice.push;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import io.vertx.core.Handler;
import dev.sluice.runtime.EventLoops;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import io.vertx.ext.eventbus.bridge.tcp.TcpEventBusBridge;
import java.lang.reflect.Field;
import java.util.function.Predicate;

/**
 * What the TCP bridge module (vertx-tcp-eventbus-bridge 5.0.8) does not offer, added around it: a
 * say on each new connection before the bridge reads from it, a frame-size limit applied to the
 * bytes as they arrive, and the connection's closing. The module reports neither new nor closed
 * connections, and its parser buffers a whole frame, however long its length prefix says it is,
 * before anyone sees it; so this class reaches where the public API does not: the module's own
 * NetServer (a private field, by reflection) and the connection's Netty pipeline (through
 * {@link EventLoops}). If the module changes shape, the bridge refuses to start rather than run
 * unguarded.
 */
final class TcpBridgeSockets {
  private TcpBridgeSockets() {}

  /**
   * Makes every new connection of {@code bridge} pass {@code admit} first (called before the bridge
   * sees it; a refused connection is the predicate's to close). Call before the bridge listens.
   */
  @SuppressWarnings("unchecked")
  static void admitThrough(TcpEventBusBridge bridge, Predicate<NetSocket> admit) {
    NetServer server;
    try {
      Field f = bridge.getClass().getDeclaredField("server");
      f.setAccessible(true);
      server = (NetServer) f.get(bridge);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IllegalStateException("The TCP bridge cannot be guarded (its module changed): leave push.tcpPort at 0", e);
    }
    Handler<NetSocket> bridgeHandler = server.connectHandler();
    server.connectHandler(socket -> {
      if (admit.test(socket)) {
        bridgeHandler.handle(socket);
      }
    });
  }

  /** Puts a frame-size limit in front of a new connection's pipeline, before its first byte is read. */
  static void limitFrames(NetSocket socket, int maxFrameBytes) {
    ChannelHandlerContext ctx = EventLoops.channelOf(socket);
    ctx.pipeline().addBefore(ctx.name(), FrameLimit.NAME, new FrameLimit(maxFrameBytes));
  }

  /** Runs {@code closed} once the connection's channel has closed (at once if it already has). */
  static void onClose(NetSocket socket, Runnable closed) {
    EventLoops.channelOf(socket).channel().closeFuture().addListener(f -> closed.run());
  }

  /**
   * Follows the framing (a 4-byte big-endian length, then that many bytes of JSON) over the bytes
   * as they arrive and closes the connection at the first length over the limit; bytes pass through
   * unchanged. One per connection, on its event loop.
   */
  static final class FrameLimit extends ChannelInboundHandlerAdapter {
    static final String NAME = "sluice-frame-limit";

    private final int maxFrameBytes;
    /** Bytes of the current length prefix read so far (0-3), and its value so far. */
    private int lengthBytesRead;
    private int length;
    /** Bytes of the current frame's body still to come. */
    private long remaining;

    FrameLimit(int maxFrameBytes) {
      this.maxFrameBytes = maxFrameBytes;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (msg instanceof ByteBuf buf && !withinLimit(buf)) {
        ReferenceCountUtil.release(msg);
        ctx.close();
        return;
      }
      ctx.fireChannelRead(msg);
    }

    /** Follows the framing over {@code buf} without consuming it; false at a length over the limit. */
    boolean withinLimit(ByteBuf buf) {
      int i = buf.readerIndex();
      int end = buf.writerIndex();
      while (i < end) {
        if (remaining > 0) {
          long skip = Math.min(remaining, end - i);
          remaining -= skip;
          i += (int) skip;
          continue;
        }
        length = (length << 8) | (buf.getByte(i++) & 0xff);
        if (++lengthBytesRead == 4) {
          if (length < 0 || length > maxFrameBytes) {
            return false;
          }
          remaining = length;
          lengthBytesRead = 0;
          length = 0;
        }
      }
      return true;
    }
  }
}
