package dev.sluice.cluster;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import dev.sluice.engine.CallerGone;
import dev.sluice.engine.EngineAction;
import dev.sluice.engine.EngineActions;
import dev.sluice.engine.PortableCall;
import dev.sluice.engine.QueueEngine;
import dev.sluice.engine.ShardNotHere;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.eventbus.Message;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The owner's side of forwarding (design page cluster.md, §2.8–2.10): runs the requests other nodes
 * forward to it with the engine they would have met locally ({@link QueueEngine#runHere}: the
 * same permissions, gate and fencing), for the caller the entry node settled, and answers each
 * with its result under the shard's epoch, its SQS error, or {@link Frame.NotHere} when the shard
 * is not served here (nothing ran). A {@link Frame.Cancel} ends the long poll of a caller that
 * left the entry node. Frames arrive on the cluster instance's loop; requests run on the serving
 * instance's {@code serving} context, and their answers go back from the cluster's.
 */
final class ForwardedCalls {
  private static final System.Logger LOG = System.getLogger(ForwardedCalls.class.getName());

  private final ClusterLink link;
  private final QueueEngine engine;
  private final ShardManager shards;
  private final Context serving;
  /** Requests running here, by entry node and request id, with their callers' signals. */
  private final Map<String, CallerGone> running = new HashMap<>();

  ForwardedCalls(ClusterLink link, QueueEngine engine, ShardManager shards, Context serving) {
    this.link = link;
    this.engine = engine;
    this.shards = shards;
    this.serving = serving;
    link.receive(this::received);
  }

  private void received(Message<Frame> message) {
    Frame frame = message.body();
    if (frame instanceof Frame.Request request) {
      run(message, request);
    } else if (frame instanceof Frame.Cancel cancel) {
      CallerGone gone = running.remove(cancel.sender() + "/" + cancel.requestId());
      if (gone != null) {
        gone.fire();
      }
    }
  }

  private void run(Message<Frame> message, Frame.Request request) {
    String key = request.sender() + "/" + request.requestId();
    CallerGone gone = new CallerGone();
    running.put(key, gone);
    Future<Object> result;
    if (request.actionId() == Forwarder.QUEUE_NAMES && request.body() instanceof QueueNamesRequest q) {
      result = onServing(() -> engine.queueNamesHere(q.place(), q.prefix(), q.deadLetterArn(), new HashSet<>(q.shards()))
          .map(Object.class::cast));
    } else if (request.actionId() == Forwarder.PORTABLE && request.body() instanceof PortableCall<?> call) {
      result = onServing(() -> engine.runPortable(call).map(Object.class::cast));
    } else {
      EngineAction<?, ?> action = EngineActions.byId(request.actionId());
      if (action == null || !action.requestType().isInstance(request.body())) {
        running.remove(key);
        answer(message, request, Future.failedFuture(new SqsException(ErrorCode.INTERNAL_FAILURE,
            "node " + link.nodeId() + " cannot run action " + request.actionId() + " with this request")));
        return;
      }
      result = onServing(() -> runAction(action, request, gone));
    }
    result.onComplete(done -> link.context().runOnContext(v -> {
      running.remove(key);
      answer(message, request, done.succeeded() ? Future.succeededFuture(done.result())
          : Future.failedFuture(done.cause()));
    }));
  }

  private <Q, R> Future<Object> runAction(EngineAction<Q, R> action, Frame.Request request, CallerGone gone) {
    // Its type was checked against the action's request type.
    return engine.runHere(action, request.caller(), action.requestType().cast(request.body()), gone)
        .map(Object.class::cast);
  }

  /** Runs {@code call} on the serving instance's context; its answer comes back to the caller's. */
  private Future<Object> onServing(Supplier<Future<Object>> call) {
    Promise<Object> done = Promise.promise();
    serving.runOnContext(v -> {
      try {
        call.get().onComplete(done);
      } catch (RuntimeException e) {
        done.tryFail(e);
      }
    });
    return done.future();
  }

  private void answer(Message<Frame> message, Frame.Request request, Future<Object> result) {
    long epoch = shards.heldEpoch(Math.max(0, request.shard()));
    Frame reply;
    if (result.succeeded()) {
      reply = new Frame.Reply(link.nodeId(), link.nextSequence(), request.sender(), request.requestId(),
          request.shard(), epoch, (Record) result.result());
    } else if (result.cause() instanceof ShardNotHere notHere) {
      reply = new Frame.NotHere(link.nodeId(), link.nextSequence(), request.sender(), request.requestId(),
          request.shard(), shards.routing().ownerOf(notHere.shard()));
    } else if (result.cause() instanceof SqsException e) {
      reply = Frame.Failure.of(link.nodeId(), link.nextSequence(), request.sender(), request.requestId(),
          request.shard(), epoch, e);
    } else {
      LOG.log(System.Logger.Level.ERROR, "A forwarded " + request.actionId() + " failed", result.cause());
      reply = Frame.Failure.of(link.nodeId(), link.nextSequence(), request.sender(), request.requestId(),
          request.shard(), epoch, new SqsException(ErrorCode.INTERNAL_FAILURE, "The request failed on node "
              + link.nodeId() + "."));
    }
    link.reply(message, reply);
  }
}
