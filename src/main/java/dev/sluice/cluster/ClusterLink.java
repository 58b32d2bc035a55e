package dev.sluice.cluster;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The frames between this node and the others (design page cluster.md, §2.8): point to point on
 * the cluster instance's event bus, to {@code sluice.cluster.node.<node id>}, written by
 * {@link ForwardCodec} (authenticated with the cluster's secret), each with this node's next
 * sequence number, and every frame received, replies included, checked by {@link FrameAuth} (a
 * member sent it, to this node, and not before). All on the cluster instance's one event loop.
 */
final class ClusterLink {
  static final String ADDRESS_PREFIX = "sluice.cluster.node.";
  private static final System.Logger LOG = System.getLogger(ClusterLink.class.getName());

  private final ClusterNode node;
  private final Context context;
  private final FrameAuth auth;
  private final AtomicLong sequence = new AtomicLong();

  ClusterLink(ClusterNode node, byte[] secret) {
    this.node = node;
    this.context = node.vertx().getOrCreateContext();
    this.auth = new FrameAuth(node.nodeId());
    node.vertx().eventBus().registerCodec(new ForwardCodec(secret, new RecordCodec(RecordTypes.all())));
  }

  String nodeId() {
    return node.nodeId();
  }

  /** The cluster instance's context: everything here runs on it. */
  Context context() {
    return context;
  }

  boolean isMember(String nodeId) {
    return node.members().contains(nodeId);
  }

  long nextSequence() {
    return sequence.incrementAndGet();
  }

  private DeliveryOptions options(DeliveryOptions base) {
    return base.setCodecName(ForwardCodec.NAME);
  }

  /** Sends {@code frame} to {@code target} and answers its reply, once checked. */
  Future<Frame> request(String target, Frame frame, DeliveryOptions options) {
    return node.vertx().eventBus().<Frame>request(ADDRESS_PREFIX + target, frame, options(options))
        .map(reply -> checked(reply.body()));
  }

  /** Sends {@code frame} to {@code target}, with no reply. */
  void send(String target, Frame frame) {
    node.vertx().eventBus().send(ADDRESS_PREFIX + target, frame, options(new DeliveryOptions()));
  }

  /** Replies to a request this node received. */
  void reply(Message<Frame> request, Frame reply) {
    request.reply(reply, options(new DeliveryOptions()));
  }

  /**
   * Takes the frames sent to this node, each checked first; a frame refused is dropped (logged),
   * and a request refused is failed so that its sender does not wait.
   */
  void receive(Handler<Message<Frame>> handler) {
    node.vertx().eventBus().<Frame>consumer(ADDRESS_PREFIX + nodeId(), message -> {
      try {
        checked(message.body());
      } catch (FrameRefused refused) {
        LOG.log(System.Logger.Level.WARNING, "Refused a frame: " + refused.getMessage());
        if (message.replyAddress() != null) {
          message.fail(403, "refused");
        }
        return;
      }
      handler.handle(message);
    });
  }

  private Frame checked(Frame frame) {
    auth.check(frame, isMember(frame.sender()));
    return frame;
  }
}
