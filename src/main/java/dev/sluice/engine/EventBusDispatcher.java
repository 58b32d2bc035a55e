package dev.sluice.engine;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.MessageCodec;
import java.util.List;

/**
 * Sends each call to its shard over the local event bus (a pass-through codec, so nothing is
 * serialised). Kept to measure against {@link DirectDispatcher}; it is also the shape a clustered
 * engine would take. The shards register their consumers in {@link #register}.
 */
public final class EventBusDispatcher implements ShardDispatcher {
  static final String ADDRESS_PREFIX = "sluice.shard.";
  /** Longer than the longest long poll (20 s), so a parked receive never times out here. */
  private static final DeliveryOptions OPTIONS =
      new DeliveryOptions().setLocalOnly(true).setSendTimeout(60_000).setCodecName(PassThroughCodec.NAME);

  private final Vertx vertx;
  private final int shardCount;

  public EventBusDispatcher(Vertx vertx, int shardCount) {
    this.vertx = vertx;
    this.shardCount = shardCount;
  }

  /** Registers the codec once per Vert.x instance; call before deploying the shards. */
  public static void registerCodec(Vertx vertx) {
    vertx.eventBus().registerCodec(new PassThroughCodec());
  }

  /** Called on the shard's own context so its consumer runs on that event loop. */
  static void register(Vertx vertx, int index, Shard shard) {
    vertx.eventBus().<ShardCall<Object>>localConsumer(ADDRESS_PREFIX + index, msg -> {
      Promise<Object> p = Promise.promise();
      p.future().onComplete(ar -> msg.reply(new Outcome(ar.result(), ar.cause()), OPTIONS));
      shard.run(msg.body(), p);
    });
  }

  @Override
  @SuppressWarnings("unchecked")
  public <R> Future<R> call(int shard, ShardCall<R> call) {
    return vertx.eventBus().<Outcome>request(ADDRESS_PREFIX + shard, call, OPTIONS)
        .compose(m -> m.body().failure() == null
            ? Future.succeededFuture((R) m.body().value())
            : Future.failedFuture(m.body().failure()));
  }

  @Override
  public int shardCount() {
    return shardCount;
  }

  record Outcome(Object value, Throwable failure) {}

  /** Local delivery only: the object itself travels; the wire methods are never used. */
  static final class PassThroughCodec implements MessageCodec<Object, Object> {
    static final String NAME = "sluice-pass-through";

    @Override
    public void encodeToWire(Buffer buffer, Object o) {
      throw new UnsupportedOperationException("local delivery only");
    }

    @Override
    public Object decodeFromWire(int pos, Buffer buffer) {
      throw new UnsupportedOperationException("local delivery only");
    }

    @Override
    public Object transform(Object o) {
      return o;
    }

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public byte systemCodecID() {
      return -1;
    }
  }
}
