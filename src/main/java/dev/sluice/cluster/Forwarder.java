package dev.sluice.cluster;

import dev.sluice.api.AccountRegion;
import dev.sluice.api.Caller;
import dev.sluice.api.ErrorCode;
import dev.sluice.api.ReceiveMessage;
import dev.sluice.api.SqsException;
import dev.sluice.engine.CallerGone;
import dev.sluice.engine.EngineAction;
import dev.sluice.engine.PortableCall;
import dev.sluice.engine.QueueNames;
import dev.sluice.engine.RemoteShards;
import dev.sluice.runtime.EventLoops;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The entry node's side of forwarding (design page cluster.md, §2.8): a call for a shard another
 * node holds goes to that node over the cluster's event bus as a {@link Frame.Request}, and its
 * answer comes back the same way. While the shard moves (no owner known, the owner answers
 * {@link Frame.NotHere}, or is gone), the call is routed again with a growing pause, for up to
 * {@code cluster.retryMillis}; a call that may have run is never sent twice. An answer served under
 * an older epoch than one this node knows is discarded. Everything here runs on the cluster
 * instance's event loop; callers get their answers on their own contexts.
 */
final class Forwarder implements RemoteShards {
  /** The pauses between two routings of one call, then the last one repeated. */
  static final long[] BACKOFF_MILLIS = {50, 100, 200, 400, 500};
  /** How long an answer may take beyond what the call itself may take (a long poll's wait). */
  static final long ANSWER_SLACK_MILLIS = 10_000;
  /** The internal action of a listing's question: names, not an engine action. */
  static final int QUEUE_NAMES = -1;
  /** The internal action of work the server sends itself ({@link PortableCall}). */
  static final int PORTABLE = -2;

  private final ClusterLink link;
  private final RoutingTable routing;
  private final long retryMillis;
  private final AtomicLong requestIds = new AtomicLong();

  Forwarder(ClusterLink link, RoutingTable routing, long retryMillis) {
    this.link = link;
    this.routing = routing;
    this.retryMillis = retryMillis;
  }

  @Override
  public <Q, R> Future<R> forward(EngineAction<Q, R> action, int shard, Caller caller, Q request,
      CallerGone gone) {
    ForwardedCaller who = ForwardedCaller.of(caller); // read on the caller's loop
    return send(shard, action.id(), who, (Record) request, gone);
  }

  @Override
  public <T extends Record> Future<T> call(int shard, PortableCall<T> call) {
    return send(shard, PORTABLE, ForwardedCaller.NOBODY, (Record) call, CallerGone.NOT_WATCHED);
  }

  /** Sends a request to whichever node holds {@code shard}; answers its answer on the caller's context. */
  private <R> Future<R> send(int shard, int actionId, ForwardedCaller caller, Record body, CallerGone gone) {
    Promise<R> answer = EventLoops.promiseOnCaller();
    long deadline = System.nanoTime() + retryMillis * 1_000_000;
    long requestId = requestIds.incrementAndGet();
    link.context().runOnContext(v -> attempt(new Call(shard, actionId, caller, body, gone, requestId, deadline),
        0, answer));
    return answer.future();
  }

  /** One request on its way, whatever routing it takes. */
  private record Call(int shard, int actionId, ForwardedCaller caller, Record body, CallerGone gone, long requestId,
      long deadline) {}

  /** One routing of the call; {@code tries} so far. */
  private <R> void attempt(Call call, int tries, Promise<R> answer) {
    int shard = call.shard();
    if (call.gone().isFired()) {
      answer.tryFail(unavailable("the caller left before the call ran"));
      return;
    }
    String owner = routing.ownerOf(shard);
    if (owner == null || !link.isMember(owner)) {
      // Nobody serves it yet: it is moving, or its owner just failed. (This node itself may be the
      // owner, loading the shard: the request then goes to its own address, and waits likewise.)
      retry(() -> attempt(call, tries + 1, answer), call.deadline(), tries, answer, owner == null
          ? "no node serves shard " + shard + " now" : "node " + owner + " of shard " + shard + " is no member now");
      return;
    }
    long timeout = answerMillis(call.body());
    Frame.Request frame = new Frame.Request(link.nodeId(), link.nextSequence(), owner, call.requestId(), shard,
        timeout, call.actionId(), call.caller(), call.body());
    // The caller leaving while the call runs on the owner ends it there too (a long poll's wait).
    if (call.gone() != CallerGone.NOT_WATCHED) { // shared by every call that never waits: never fires
      call.gone().onFire(() -> link.context().runOnContext(v -> link.send(owner,
          new Frame.Cancel(link.nodeId(), link.nextSequence(), owner, call.requestId()))));
    }
    link.request(owner, frame, new DeliveryOptions().setSendTimeout(timeout + ANSWER_SLACK_MILLIS))
        .onComplete((reply, failure) -> {
          if (failure != null) {
            if (failure instanceof ReplyException e && e.failureType() == ReplyFailure.NO_HANDLERS) {
              // Nothing received it (the owner left): it did not run.
              retry(() -> attempt(call, tries + 1, answer), call.deadline(), tries, answer,
                  "node " + owner + " does not answer for shard " + shard);
            } else {
              answer.tryFail(unavailable("node " + owner + " did not answer in time; the request may have taken"
                  + " effect"));
            }
            return;
          }
          if (reply instanceof Frame.NotHere notHere) {
            if (notHere.ownerHint() != null && !notHere.ownerHint().equals(owner)) {
              routing.hint(shard, notHere.ownerHint());
            }
            retry(() -> attempt(call, tries + 1, answer), call.deadline(), tries, answer,
                "shard " + shard + " is moving");
          } else if (reply instanceof Frame.Reply r) {
            if (r.epoch() < routing.epochOf(shard)) {
              answer.tryFail(unavailable("shard " + shard + " moved while the request ran"));
            } else {
              @SuppressWarnings("unchecked")
              R result = (R) r.body();
              answer.tryComplete(result);
            }
          } else if (reply instanceof Frame.Failure f) {
            answer.tryFail(f.exception());
          } else {
            answer.tryFail(unavailable("node " + owner + " answered with " + reply.getClass().getSimpleName()));
          }
        });
  }

  /** Routes again after the next pause, unless that would pass the deadline. */
  private void retry(Runnable again, long deadline, int tries, Promise<?> answer, String why) {
    long pause = BACKOFF_MILLIS[Math.min(tries, BACKOFF_MILLIS.length - 1)];
    if (System.nanoTime() + pause * 1_000_000 > deadline) {
      answer.tryFail(unavailable(why));
      return;
    }
    link.context().owner().setTimer(pause, t -> again.run());
  }

  /** How long the owner may take: a receive may wait up to its WaitTimeSeconds (20 at most). */
  private static long answerMillis(Record body) {
    if (body instanceof ReceiveMessage.Request r) {
      return 20_000;
    }
    return 5_000;
  }

  static SqsException unavailable(String why) {
    return new SqsException(ErrorCode.SERVICE_UNAVAILABLE, "The request could not be served: " + why
        + ". Retry the request.");
  }

  @Override
  public Future<List<String>> queueNames(AccountRegion place, String prefix, String deadLetterArn,
      Set<Integer> wanted) {
    Promise<List<String>> answer = EventLoops.promiseOnCaller();
    long deadline = System.nanoTime() + retryMillis * 1_000_000;
    List<String> names = new ArrayList<>();
    link.context().runOnContext(v -> ask(new QueueNamesRequest(place, prefix, deadLetterArn, List.of()),
        new TreeSet<>(wanted), names, deadline, 0, answer));
    return answer.future();
  }

  /** Asks each owner of the shards still {@code missing} for their names; again for what none answered. */
  private void ask(QueueNamesRequest question, Set<Integer> missing, List<String> names, long deadline,
      int tries, Promise<List<String>> answer) {
    if (missing.isEmpty()) {
      answer.tryComplete(names);
      return;
    }
    Map<String, List<Integer>> byOwner = new HashMap<>();
    for (int shard : missing) {
      String owner = routing.ownerOf(shard);
      if (owner != null && link.isMember(owner)) {
        byOwner.computeIfAbsent(owner, o -> new ArrayList<>()).add(shard);
      }
    }
    List<Future<Frame>> asked = new ArrayList<>();
    for (Map.Entry<String, List<Integer>> e : byOwner.entrySet()) {
      Frame.Request frame = new Frame.Request(link.nodeId(), link.nextSequence(), e.getKey(),
          requestIds.incrementAndGet(), -1, 5_000, QUEUE_NAMES, ForwardedCaller.NOBODY,
          new QueueNamesRequest(question.place(), question.prefix(), question.deadLetterArn(), e.getValue()));
      asked.add(link.request(e.getKey(), frame, new DeliveryOptions().setSendTimeout(5_000)));
    }
    Future.join(asked).onComplete(done -> {
      for (Future<Frame> f : asked) {
        if (f.succeeded() && f.result() instanceof Frame.Reply r && r.body() instanceof QueueNames n) {
          for (QueueNames.ShardNames s : n.shards()) {
            if (missing.remove(s.shard())) { // each shard's names once, whoever answered
              names.addAll(s.names());
            }
          }
        }
      }
      if (missing.isEmpty()) {
        answer.tryComplete(names);
      } else {
        retry(() -> ask(question, missing, names, deadline, tries + 1, answer), deadline, tries, answer,
            "shards " + missing + " are moving");
      }
    });
  }
}
