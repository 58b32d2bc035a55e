package dev.sluice.push;

import static dev.sluice.push.PushParameters.body;
import static dev.sluice.push.PushParameters.callerOf;
import static dev.sluice.push.PushParameters.connectionOf;
import static dev.sluice.push.PushParameters.integer;
import static dev.sluice.push.PushParameters.string;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.Limits;
import dev.sluice.config.SqsConfig;
import dev.sluice.api.SqsException;
import dev.sluice.api.topics.SnsErrorCode;
import dev.sluice.api.topics.SnsException;
import dev.sluice.engine.CallerGone;
import dev.sluice.engine.EngineActions;
import dev.sluice.engine.PushRequests;
import dev.sluice.engine.QueueEngine;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

/**
 * The server side of the push protocol: answers the requests the bridges let through (subscribe,
 * ack, nack, extend, unsubscribe, credit), keeps every subscription (of a queue or of a topic), and ends a
 * connection's subscriptions when it closes. All of it on this verticle's event loop; the bridges only pass frames and tell
 * it which connection a request came from.
 */
public final class PushService extends VerticleBase {
  static final long EXPIRY_SWEEP_MILLIS = 200;
  /** Subscriptions one connection may hold; each parks a receive and holds up to its prefetch. */
  static final int MAX_SUBSCRIPTIONS_PER_CONNECTION = 100;
  /** How long a closed connection is remembered, so a subscribe answered after it is refused. */
  static final long CLOSED_REMEMBERED_MILLIS = 60_000;

  private final QueueEngine engine;
  private final PushDirectory directory;
  private final SqsConfig sqs;
  private final int maxPrefetch;
  private final SecureRandom random = new SecureRandom();
  private final Map<String, PushSubscription> byId = new HashMap<>();
  private final Map<String, Set<PushSubscription>> byConnection = new HashMap<>();
  private final Set<String> closedConnections = new HashSet<>();
  /** Open subscriptions, read by the metrics from another thread. */
  private final AtomicInteger open;
  private boolean stopping;
  /** While the server does not serve: subscriptions end, new ones are refused. */
  private boolean paused;

  PushService(QueueEngine engine, PushDirectory directory, SqsConfig sqs, int maxPrefetch, AtomicInteger open) {
    this.open = open;
    this.engine = engine;
    this.directory = directory;
    this.sqs = sqs;
    this.maxPrefetch = maxPrefetch;
  }

  @Override
  public Future<?> start() {
    var bus = vertx.eventBus();
    bus.<Object>localConsumer(PushAddresses.SUBSCRIBE, this::subscribe);
    // What each request needs is decided here: ack, nack and extend act on the queue through the
    // engine, which asks the SQS action's permission (DeleteMessage, ChangeMessageVisibility) as
    // their SQS counterparts do; unsubscribe and credit only change the connection's own
    // subscription (onSubscription checks that it is), so they need nothing more.
    bus.<Object>localConsumer(PushAddresses.ACK, m -> onSubscription(m, PushSubscription::ack));
    bus.<Object>localConsumer(PushAddresses.NACK, m -> onSubscription(m, PushSubscription::nack));
    bus.<Object>localConsumer(PushAddresses.EXTEND, m -> onSubscription(m, PushSubscription::extend));
    bus.<Object>localConsumer(PushAddresses.UNSUBSCRIBE, m -> onSubscription(m, (s, b) -> {
      end(s);
      return Future.succeededFuture();
    }));
    bus.<Object>localConsumer(PushAddresses.CREDIT, m -> onSubscription(m, PushSubscription::credit));
    bus.<String>localConsumer(PushAddresses.CONNECTION_CLOSED, m -> closeConnection(m.body()));
    bus.<Object>localConsumer(PushAddresses.STOPPING, m -> {
      // In-flight messages of every subscription become visible again at once, as on a close.
      stopping = true;
      List.copyOf(byId.values()).forEach(this::end);
      m.reply(null);
    });
    bus.<Boolean>localConsumer(PushAddresses.SERVING, m -> {
      paused = !m.body();
      if (paused) {
        // Its in-flight messages become visible again at once; the client hears why, and may
        // subscribe again once this server serves again (or where the database is served now).
        SqsException why = notServing();
        for (PushSubscription s : List.copyOf(byId.values())) {
          vertx.eventBus().send(s.address, PushMessages.ended(s.id, why));
          end(s);
        }
      }
      m.reply(null);
    });
    // A client that stops listening without unsubscribing would have messages pushed to nobody.
    bus.<String>localConsumer(PushAddresses.DELIVERY_UNREGISTERED, m -> {
      PushSubscription s = byId.get(m.body().substring(PushAddresses.DELIVERY_PREFIX.length()));
      if (s != null) {
        end(s);
      }
    });
    bus.<String>localConsumer(PushAddresses.DELIVERY_REGISTERED, m -> {
      PushSubscription s = byId.get(m.body().substring(PushAddresses.DELIVERY_PREFIX.length()));
      if (s != null) {
        s.start();
      }
    });
    vertx.setPeriodic(EXPIRY_SWEEP_MILLIS, t -> {
      long now = System.currentTimeMillis();
      List.copyOf(byId.values()).forEach(s -> s.expireOverdue(now));
    });
    return Future.succeededFuture();
  }

  private void subscribe(Message<Object> m) {
    try {
      JsonObject body = body(m);
      String connection = connectionOf(m);
      BridgeCaller caller = callerOf(m, body, sqs);
      int prefetch = integer(body, "prefetch", 1, maxPrefetch, Math.min(10, maxPrefetch));
      boolean demand = PushParameters.demandCredit(body);
      if (body.getValue("topicArn") != null || body.getValue("topicName") != null) {
        if (demand) {
          // A publish is pushed as it happens or dropped: there is nothing to hold back until asked.
          throw SqsException.invalidValue(PushParameters.DEMAND_CREDIT, "credit",
              "A topic's subscription takes \"" + PushParameters.AUTO_CREDIT + "\" credit only.");
        }
        checkMayAdd(connection);
        subscribeTopic(m, body, connection, caller, prefetch);
        return;
      }
      String queue = body.getValue("queueUrl") != null ? string(body, "queueUrl") : string(body, "queueName");
      if (queue == null) {
        throw SqsException.missingParameter("queueUrl");
      }
      // At least a second: with 0 every pushed message would be visible again at once and come
      // round to the same subscriber until its credits ran out.
      Integer visibility = body.getValue("visibilityTimeout") == null ? null
          : integer(body, "visibilityTimeout", 1, Limits.VISIBILITY_SECONDS_MAX, null);
      checkMayAdd(connection);
      // Also tells a missing queue apart before anything is set up.
      // Asked as ReceiveMessage: a subscriber needs no more than receiving to consume a queue.
      engine.run(EngineActions.PUSH_VISIBILITY_TIMEOUT, caller, new PushRequests.VisibilityTimeout(queue),
              CallerGone.NOT_WATCHED)
          .map(PushRequests.Seconds::seconds)
          .onFailure(e -> PushMessages.fail(m, e))
          .onSuccess(queueVisibility -> {
            if (!stillWanted(m, connection)) {
              return;
            }
            int seconds = visibility != null ? visibility : Math.max(1, queueVisibility);
            QueueSubscription s = new QueueSubscription(newId(), connection, caller, queue, prefetch, seconds,
                demand, engine, vertx);
            add(s);
            m.reply(new JsonObject().put("subscription", s.id).put("address", s.address).put("prefetch", prefetch)
                .put("visibilityTimeout", seconds)
                .put("credit", demand ? PushParameters.DEMAND_CREDIT : PushParameters.AUTO_CREDIT));
          });
    } catch (RuntimeException e) {
      PushMessages.fail(m, e);
    }
  }

  /**
   * A topic's subscription: a listener on the topic's shard (checked there as Subscribe is), whose
   * notifications come back to this loop.
   */
  private void subscribeTopic(Message<Object> m, JsonObject body, String connection, BridgeCaller caller,
      int prefetch) {
    String topicArn = string(body, "topicArn");
    String topicName = topicArn == null ? string(body, "topicName") : null;
    Object filter = body.getValue("filterPolicy");
    String filterPolicy = filter instanceof JsonObject o ? o.encode() : string(body, "filterPolicy");
    String scope = string(body, "filterPolicyScope");
    TopicSubscription s = new TopicSubscription(newId(), connection, caller, prefetch, engine, vertx);
    var here = vertx.getOrCreateContext();
    engine.sns().pushes().add(caller, topicArn, topicName, filterPolicy, scope, s.id,
            n -> here.runOnContext(v -> s.offer(n)),
            () -> here.runOnContext(v -> {
              if (byId.get(s.id) == s) {
                vertx.eventBus().send(s.address, PushMessages.ended(s.id, new SnsException(SnsErrorCode.NOT_FOUND,
                    "Topic does not exist")));
                end(s);
              }
            }))
        .onFailure(e -> PushMessages.fail(m, e))
        .onSuccess(arn -> {
          s.listening(arn);
          if (!stillWanted(m, connection)) {
            s.close();
            return;
          }
          add(s);
          m.reply(new JsonObject().put("subscription", s.id).put("address", s.address).put("prefetch", prefetch)
              .put("topicArn", arn));
        });
  }

  /** Refuses a subscription the server or the connection cannot take now. */
  private void checkMayAdd(String connection) {
    if (stopping) {
      throw new SqsException(ErrorCode.SERVICE_UNAVAILABLE, "The server is stopping.");
    }
    if (paused) {
      throw notServing();
    }
    if (byConnection.getOrDefault(connection, Set.of()).size() >= MAX_SUBSCRIPTIONS_PER_CONNECTION) {
      throw new SqsException(ErrorCode.OVER_LIMIT,
          "A connection may hold at most " + MAX_SUBSCRIPTIONS_PER_CONNECTION + " subscriptions.");
    }
  }

  /** Whether a subscription answered now still has someone to push to; answers the refusal when not. */
  private boolean stillWanted(Message<Object> m, String connection) {
    if (closedConnections.contains(connection)) {
      return false; // the connection closed while the subscription was set up: nobody to push to
    }
    if (stopping || paused) {
      PushMessages.fail(m, stopping
          ? new SqsException(ErrorCode.SERVICE_UNAVAILABLE, "The server is stopping.") : notServing());
      return false;
    }
    return true;
  }

  private void add(PushSubscription s) {
    byId.put(s.id, s);
    open.incrementAndGet();
    byConnection.computeIfAbsent(s.connectionId, c -> new HashSet<>()).add(s);
    directory.add(s.address, s.connectionId);
  }

  /** Runs {@code action} on the request's subscription, if it is this connection's. */
  private void onSubscription(Message<Object> m, BiFunction<PushSubscription, JsonObject, Future<Void>> action) {
    try {
      JsonObject body = body(m);
      String id = string(body, "subscription");
      if (id == null) {
        throw SqsException.missingParameter("subscription");
      }
      PushSubscription s = byId.get(id);
      if (s == null || !s.connectionId.equals(connectionOf(m))) {
        throw new SqsException(ErrorCode.RESOURCE_NOT_FOUND, "The subscription does not exist.");
      }
      action.apply(s, body).onSuccess(v -> m.reply(new JsonObject())).onFailure(e -> PushMessages.fail(m, e));
    } catch (RuntimeException e) {
      PushMessages.fail(m, e);
    }
  }

  private void closeConnection(String connectionId) {
    closedConnections.add(connectionId);
    vertx.setTimer(CLOSED_REMEMBERED_MILLIS, t -> closedConnections.remove(connectionId));
    Set<PushSubscription> subs = byConnection.remove(connectionId);
    if (subs != null) {
      List.copyOf(subs).forEach(this::end);
    }
  }

  private void end(PushSubscription s) {
    s.close();
    if (byId.remove(s.id) != null) {
      open.decrementAndGet();
    }
    directory.remove(s.address);
    Set<PushSubscription> subs = byConnection.get(s.connectionId);
    if (subs != null) {
      subs.remove(s);
      if (subs.isEmpty()) {
        byConnection.remove(s.connectionId);
      }
    }
  }

  private static SqsException notServing() {
    return new SqsException(ErrorCode.SERVICE_UNAVAILABLE, "This server is not serving; subscribe again later.");
  }

  private String newId() {
    byte[] b = new byte[16];
    random.nextBytes(b);
    return HexFormat.of().formatHex(b);
  }
}
