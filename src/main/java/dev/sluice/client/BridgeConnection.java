package dev.sluice.client;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;

/**
 * What both transports share: reply addresses ({@code r.<n>}, short enough for the SockJS bridge's
 * 36 characters) with their pending answers and timeouts, the handlers of registered addresses, the
 * reading of the bridges' frames, and pings. A subclass moves frames. Owned by the client's event
 * loop, on which the transport delivers its reads.
 *
 * <p>Frames read: {@code {"type": "rec"|"message", "address": a, "body": …}} (an answer to a reply
 * address, or a push to a registered one: the SockJS bridge says "rec", the TCP bridge "message");
 * {@code {"type": "err", "address": r, "failureCode": n, "failureType": t, "message": "<Code>: text"}}
 * for a refused request; an {@code err} frame without an address ({@code "message"} on TCP,
 * {@code "body"} on SockJS) when the bridge itself refused a frame; {@code pong} (TCP) is ignored.
 */
abstract class BridgeConnection implements Connection {
  private static final System.Logger LOG = System.getLogger("dev.sluice.client");

  private final Vertx vertx;
  private final long replyTimeoutMillis;
  private final Map<String, Pending> pending = new HashMap<>();
  private final Map<String, Handler<JsonObject>> handlers = new HashMap<>();
  private long nextReply;
  private long pinger = -1;
  private boolean closed;
  /** Whether any request has been answered on this connection: a refusal before it is about who we are. */
  private boolean answered;
  private Handler<Throwable> closeHandler = cause -> {};

  private record Pending(Promise<JsonObject> promise, long timer) {}

  BridgeConnection(Vertx vertx, long replyTimeoutMillis) {
    this.vertx = vertx;
    this.replyTimeoutMillis = replyTimeoutMillis;
  }

  /** Writes one frame to the transport. */
  abstract void write(JsonObject frame);

  /** Closes the transport; its close must then reach {@link #closed(Throwable)}. */
  abstract Future<Void> closeTransport();

  /** Why the bridge refused a frame ({@code text}), given whether anything was answered before. */
  abstract Throwable refused(String text, boolean answeredBefore);

  /** Adds what every {@code send} frame must carry (the TCP bridge's token header). */
  JsonObject sendFrame(String address, String replyAddress, JsonObject body) {
    JsonObject frame = new JsonObject().put("type", "send").put("address", address);
    if (replyAddress != null) {
      frame.put("replyAddress", replyAddress);
    }
    return frame.put("body", body);
  }

  /** Starts pinging every {@code millis} (the bridges drop a connection that stays silent). */
  void ping(long millis) {
    pinger = vertx.setPeriodic(millis, t -> write(new JsonObject().put("type", "ping")));
  }

  @Override
  public Future<JsonObject> request(String address, JsonObject body) {
    if (closed) {
      return Future.failedFuture(new ConnectionLostException("The connection is closed.", null));
    }
    String reply = "r." + (++nextReply);
    Promise<JsonObject> promise = Promise.promise();
    long timer = vertx.setTimer(replyTimeoutMillis, t -> {
      if (pending.remove(reply) != null) {
        promise.tryFail(new TimeoutException("No answer to " + address + " within " + replyTimeoutMillis + " ms"));
      }
    });
    pending.put(reply, new Pending(promise, timer));
    write(sendFrame(address, reply, body));
    return promise.future();
  }

  @Override
  public void send(String address, JsonObject body) {
    if (!closed) {
      write(sendFrame(address, null, body));
    }
  }

  @Override
  public void register(String address, Handler<JsonObject> handler) {
    handlers.put(address, handler);
    if (!closed) {
      write(new JsonObject().put("type", "register").put("address", address));
    }
  }

  @Override
  public void unregister(String address) {
    if (handlers.remove(address) != null && !closed) {
      write(new JsonObject().put("type", "unregister").put("address", address));
    }
  }

  @Override
  public void closeHandler(Handler<Throwable> handler) {
    closeHandler = handler;
  }

  @Override
  public Future<Void> close() {
    if (closed) {
      return Future.succeededFuture();
    }
    return closeTransport();
  }

  /** One frame read from the server. */
  void onFrame(JsonObject frame) {
    try {
      String type = frame.getString("type", "");
      String address = frame.getValue("address") instanceof String a ? a : null;
      switch (type) {
        case "rec", "message" -> delivered(address, frame.getValue("body"));
        case "err" -> {
          Pending p = address == null ? null : pending.remove(address);
          if (p != null) {
            answered = true;
            vertx.cancelTimer(p.timer());
            p.promise().tryFail(ErrorMapping.fromReply(frame.getInteger("failureCode", 0),
                frame.getString("failureType"), frame.getString("message")));
          } else if (address == null) {
            String text = frame.getValue("message") instanceof String m ? m : String.valueOf(frame.getValue("body"));
            LOG.log(System.Logger.Level.WARNING, "The bridge refused a frame: {0}", text);
            fail(refused(text, answered));
          }
        }
        default -> { } // pong, and anything newer
      }
    } catch (RuntimeException e) {
      // A subscriber's exception must not cost the frames read after it.
      LOG.log(System.Logger.Level.ERROR, "A frame's handler failed", e);
    }
  }

  private void delivered(String address, Object body) {
    if (address == null) {
      return;
    }
    JsonObject json = body instanceof JsonObject o ? o : new JsonObject();
    Pending p = pending.remove(address);
    if (p != null) {
      answered = true;
      vertx.cancelTimer(p.timer());
      p.promise().tryComplete(json);
      return;
    }
    Handler<JsonObject> h = handlers.get(address);
    if (h != null) {
      h.handle(json);
    }
  }

  /** Closes the connection because of {@code cause}, which the close reports. */
  void fail(Throwable cause) {
    if (!closed) {
      closed(cause);
      closeTransport();
    }
  }

  /** The transport closed (or is being closed because of {@code cause}): everything pending fails. */
  void closed(Throwable cause) {
    if (closed) {
      return;
    }
    closed = true;
    if (pinger >= 0) {
      vertx.cancelTimer(pinger);
    }
    Throwable why = cause != null ? cause : new ConnectionLostException("The connection closed.", null);
    List<Pending> failed = new ArrayList<>(pending.values());
    pending.clear();
    handlers.clear();
    for (Pending p : failed) {
      vertx.cancelTimer(p.timer());
      p.promise().tryFail(why instanceof ConnectionLostException || why instanceof UnauthorizedException ? why
          : new ConnectionLostException("The connection closed: " + why.getMessage(), why));
    }
    closeHandler.handle(why);
  }
}
