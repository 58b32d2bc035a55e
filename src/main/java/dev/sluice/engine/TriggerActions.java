package dev.sluice.engine;

import dev.sluice.api.Caller;
import dev.sluice.api.QueueKey;
import dev.sluice.api.triggers.EventSourceMapping;
import dev.sluice.api.triggers.LambdaErrorCode;
import dev.sluice.api.triggers.LambdaException;
import dev.sluice.api.triggers.MappingRequest;
import dev.sluice.model.QueueArns;
import dev.sluice.model.QueueState;
import dev.sluice.topics.filter.EventPattern;
import dev.sluice.triggers.TargetSettings;
import dev.sluice.triggers.Trigger;
import dev.sluice.triggers.TriggerSettings;
import dev.sluice.triggers.TriggerStatus;
import io.vertx.core.Future;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * The admin actions of triggers (Lambda's CreateEventSourceMapping, GetEventSourceMapping,
 * UpdateEventSourceMapping, DeleteEventSourceMapping and ListEventSourceMappings; design/triggers.md
 * §2.4). A trigger's definition lives on its queue's shard, which checks it against the queue (that
 * it exists, its visibility timeout, FIFO's rules, and that the trigger's owner may consume it) in
 * the same call that stores it; the runtime is told once the shard has. A trigger is found by its
 * id on every shard. Cluster mode refuses them for now: a trigger's pollers run where its queue's
 * shard is, and that moves. Stateless but for the runtime connected.
 */
public final class TriggerActions {
  /** Lambda's check of an EventSourceArn (AWS Lambda API reference: CreateEventSourceMapping). */
  static final String ARN_PATTERN =
      "arn:(aws[a-zA-Z0-9-]*):([a-zA-Z0-9\\-])+:([a-z]{2}(-gov)?-[a-z]+-\\d{1})?:(\\d{12})?:(.*)";
  /** What the trigger's owner must be allowed on its queue, as Lambda's execution role must. */
  static final List<String> CONSUMER_ACTIONS = List.of("ReceiveMessage", "DeleteMessage", "GetQueueAttributes");
  static final int DEFAULT_MAX_ITEMS = 100;
  static final int MOST_MAX_ITEMS = 10_000;

  private final ShardDispatcher dispatcher;
  /** The server's own calls (telling a runtime of the triggers there are), not held back by the serving gate. */
  private final ShardDispatcher internal;
  private final ShardRouter router;
  private final QueueAccess access;
  private final BooleanSupplier clustered;
  /** The runtime connected, shared with {@link #startup()}'s actions. */
  private final AtomicReference<TriggerRuntime> runtime;

  TriggerActions(ShardDispatcher dispatcher, ShardDispatcher internal, ShardRouter router, QueueAccess access,
      BooleanSupplier clustered) {
    this(dispatcher, internal, router, access, clustered, new AtomicReference<>(TriggerRuntime.NONE));
  }

  private TriggerActions(ShardDispatcher dispatcher, ShardDispatcher internal, ShardRouter router,
      QueueAccess access, BooleanSupplier clustered, AtomicReference<TriggerRuntime> runtime) {
    this.dispatcher = dispatcher;
    this.internal = internal;
    this.router = router;
    this.access = access;
    this.clustered = clustered;
    this.runtime = runtime;
  }

  /**
   * The same actions for the server's own start-up work (the triggers of the configuration), which
   * runs before serving may begin and so is not held back by the serving gate.
   */
  TriggerActions startup() {
    return new TriggerActions(internal, internal, router, access, clustered, runtime);
  }

  /**
   * The runtime that runs the triggers: set once, before serving; it is told at once of every
   * trigger there is (recovered at start-up, or of the configuration).
   */
  public Future<Void> connect(TriggerRuntime connected) {
    runtime.set(connected);
    return internal.onEveryShard(s -> s.triggers().all()).map(perShard -> {
      perShard.forEach(triggers -> triggers.forEach(connected::apply));
      return null;
    });
  }

  /** A new trigger, owned by the caller's account: answered in state Creating (Disabled when not enabled). */
  public Future<EventSourceMapping> create(Caller c, MappingRequest r, String origin) {
    checkServed();
    QueueKey queue = queueOf(r.eventSourceArn());
    if (r.functionName() == null) {
      throw new LambdaException(LambdaErrorCode.VALIDATION, "1 validation error detected: Value null at"
          + " 'functionName' failed to satisfy constraint: Member must not be null");
    }
    boolean fifo = queue.name().endsWith(".fifo");
    TriggerSettings settings = TriggerSettings.check(r.batchSize(), r.maximumBatchingWindowInSeconds(),
        r.functionResponseTypes(), r.scalingConfig() == null ? null : r.scalingConfig().maximumConcurrency(), fifo);
    MappingRequest.TargetConfig tc = r.targetConfig() == null
        ? new MappingRequest.TargetConfig(null, null, null, null, null) : r.targetConfig();
    TargetSettings target = TargetSettings.check(r.functionName(), tc.protocol(), tc.timeoutSeconds(), tc.headers(),
        tc.verifyTls(), tc.maxConcurrentRequests());
    List<String> patterns = patterns(r.filterCriteria());
    Permit[] permits = permits(c);
    return dispatcher.<Trigger>call(router.shardOf(queue), (s, reply) -> {
      checkQueue(s, queue, target, c.accountId(), permits);
      Trigger t = new Trigger(UUID.randomUUID(), c.accountId(), queue, settings, target, patterns,
          r.enabled() == null || r.enabled(), Trigger.USER_INITIATED, origin, s.now());
      s.triggers().add(t);
      s.triggerWrites().save(t).onComplete(written -> reply.succeed(t), failed -> {
        s.triggers().remove(t.id());
        reply.fail(failed);
      });
    }).map(t -> {
      runtime.get().apply(t);
      return view(t, t.enabled() ? "Creating" : "Disabled");
    });
  }

  public Future<EventSourceMapping> get(Caller c, String id) {
    checkServed();
    return locate(c, id).map(t -> view(t, t.enabled() ? "Enabled" : "Disabled"));
  }

  /**
   * Changes the fields {@code r} gives (EventSourceArn cannot change), checked as a creation is, and
   * its origin to {@code origin} unless null; answered Updating, Enabling or Disabling.
   */
  public Future<EventSourceMapping> update(Caller c, String id, MappingRequest r, String origin) {
    checkServed();
    if (r.eventSourceArn() != null) {
      throw LambdaException.invalidValue("EventSourceArn cannot be updated.");
    }
    List<String> patterns = r.filterCriteria() == null ? null : patterns(r.filterCriteria());
    Permit[] permits = permits(c);
    return locate(c, id).compose(found -> dispatcher.<Trigger[]>call(router.shardOf(found.queue()), (s, reply) -> {
      Trigger was = s.triggers().get(found.id());
      Trigger changed = was.with(settings(was, r), target(was, r), patterns == null ? was.filterPatterns() : patterns,
          r.enabled() == null ? was.enabled() : r.enabled(), origin == null ? was.origin() : origin, s.now());
      checkQueue(s, was.queue(), changed.target(), was.owner(), permits);
      s.triggers().replace(changed);
      s.triggerWrites().save(changed).onComplete(written -> reply.succeed(new Trigger[] {was, changed}), failed -> {
        s.triggers().replace(was);
        reply.fail(failed);
      });
    })).map(pair -> {
      Trigger was = pair[0];
      Trigger changed = pair[1];
      runtime.get().apply(changed);
      return view(changed, was.enabled() == changed.enabled() ? "Updating"
          : changed.enabled() ? "Enabling" : "Disabling");
    });
  }

  /** Deletes a trigger: answered in state Deleting; its invokes under way finish. */
  public Future<EventSourceMapping> delete(Caller c, String id) {
    checkServed();
    return locate(c, id).compose(found -> dispatcher.<Trigger>call(router.shardOf(found.queue()), (s, reply) -> {
      Trigger t = s.triggers().remove(found.id());
      s.triggerWrites().delete(t.id()).onComplete(written -> reply.succeed(t), failed -> {
        s.triggers().restore(t);
        reply.fail(failed);
      });
    })).map(t -> {
          runtime.get().remove(t.id());
          return view(t, "Deleting");
        });
  }

  /**
   * The caller's triggers, by id, of the queue {@code eventSourceArn} and the target URL
   * {@code functionName} when given, after {@code marker} (the last id of the page before).
   */
  public Future<EventSourceMapping.Page> list(Caller c, String eventSourceArn, String functionName, String marker,
      Integer maxItems) {
    checkServed();
    int most = maxItems == null ? DEFAULT_MAX_ITEMS : maxItems;
    if (most < 1 || most > MOST_MAX_ITEMS) {
      throw LambdaException.validation(most, "maxItems", most < 1
          ? "Member must have value greater than or equal to 1"
          : "Member must have value less than or equal to " + MOST_MAX_ITEMS);
    }
    String queueArn = eventSourceArn == null ? null : QueueArns.arnOf(queueOf(eventSourceArn));
    String after = marker == null || marker.isEmpty() ? null : markerId(marker);
    return dispatcher.onEveryShard(s -> s.triggers().all()).map(perShard -> {
      List<Trigger> all = new ArrayList<>();
      perShard.forEach(all::addAll);
      all.removeIf(t -> !TriggerAccess.manages(c, t) || queueArn != null && !queueArn.equals(t.queueArn())
          || functionName != null && !functionName.equals(t.target().url())
          || after != null && t.id().toString().compareTo(after) <= 0);
      all.sort(Comparator.comparing(t -> t.id().toString()));
      List<EventSourceMapping> page = new ArrayList<>();
      for (Trigger t : all.subList(0, Math.min(most, all.size()))) {
        page.add(view(t, t.enabled() ? "Enabled" : "Disabled"));
      }
      String next = all.size() > most ? Base64.getUrlEncoder().withoutPadding().encodeToString(
          page.get(page.size() - 1).uuid().getBytes(StandardCharsets.UTF_8)) : null;
      return new EventSourceMapping.Page(page, next);
    });
  }

  /** The trigger of {@code id} the caller manages, wherever it is; ResourceNotFoundException otherwise. */
  private Future<Trigger> locate(Caller c, String id) {
    UUID uuid;
    try {
      uuid = UUID.fromString(id);
    } catch (IllegalArgumentException notAnId) {
      throw notFound();
    }
    return dispatcher.onEveryShard(s -> s.triggers().find(uuid)).map(found -> found.stream()
        .filter(Objects::nonNull).filter(t -> TriggerAccess.manages(c, t)).findFirst()
        .orElseThrow(TriggerActions::notFound));
  }

  private static LambdaException notFound() {
    return dev.sluice.triggers.TriggerRegistry.notFound();
  }

  private void checkServed() {
    if (clustered.getAsBoolean()) {
      throw new LambdaException(LambdaErrorCode.SERVICE, "Triggers are not served in cluster mode yet.");
    }
  }

  /** Every check of the queue a trigger consumes, on its shard, as the trigger's {@code owner}. */
  private static void checkQueue(Shard s, QueueKey queue, TargetSettings target, String owner, Permit[] permits) {
    QueueState q = s.find(queue);
    if (q == null) {
      throw LambdaException.invalidValue("The queue " + QueueArns.arnOf(queue) + " does not exist.");
    }
    for (int i = 0; i < permits.length; i++) {
      if (!permits[i].allows(queue, q)) {
        throw LambdaException.invalidValue("The trigger's account " + owner + " does not have permission to call "
            + CONSUMER_ACTIONS.get(i) + " on " + q.metadata().arn());
      }
    }
    target.checkAgainstVisibility(q.attributes().visibilitySeconds());
  }

  /** The owner's permits for what a consumer does; asked on the caller's loop, used on the queue's shard. */
  private Permit[] permits(Caller owner) {
    return CONSUMER_ACTIONS.stream().map(a -> access.permit(owner, a)).toArray(Permit[]::new);
  }

  private static QueueKey queueOf(String arn) {
    if (arn == null) {
      throw new LambdaException(LambdaErrorCode.VALIDATION, "1 validation error detected: Value null at"
          + " 'eventSourceArn' failed to satisfy constraint: Member must not be null");
    }
    QueueKey key = arn.matches(ARN_PATTERN) ? QueueArns.keyOf(arn) : null;
    if (key == null) {
      throw LambdaException.validation(arn, "eventSourceArn",
          "Member must satisfy regular expression pattern: " + ARN_PATTERN);
    }
    return key;
  }

  private static List<String> patterns(MappingRequest.FilterCriteria criteria) {
    List<String> patterns = criteria == null || criteria.patterns() == null ? List.of() : criteria.patterns();
    try {
      EventPattern.parseAll(patterns);
    } catch (IllegalArgumentException invalid) {
      throw LambdaException.invalidValue(invalid.getMessage());
    }
    return patterns;
  }

  private static TriggerSettings settings(Trigger was, MappingRequest r) {
    TriggerSettings s = was.settings();
    Integer concurrency = r.scalingConfig() == null
        ? (s.maximumConcurrency() == 0 ? null : Integer.valueOf(s.maximumConcurrency()))
        : r.scalingConfig().maximumConcurrency();
    List<String> types = r.functionResponseTypes() != null ? r.functionResponseTypes()
        : s.reportBatchItemFailures() ? List.of("ReportBatchItemFailures") : List.of();
    return TriggerSettings.check(r.batchSize() == null ? s.batchSize() : r.batchSize(),
        r.maximumBatchingWindowInSeconds() == null ? s.batchingWindowSeconds() : r.maximumBatchingWindowInSeconds(),
        types, concurrency, was.fifo());
  }

  /** A TargetConfig given replaces the whole one; a new URL alone keeps the rest (its protocol found again). */
  private static TargetSettings target(Trigger was, MappingRequest r) {
    TargetSettings t = was.target();
    String url = r.functionName() == null ? t.url() : r.functionName();
    MappingRequest.TargetConfig tc = r.targetConfig();
    if (tc != null) {
      return TargetSettings.check(url, tc.protocol(), tc.timeoutSeconds(), tc.headers(), tc.verifyTls(),
          tc.maxConcurrentRequests());
    }
    if (url.equals(t.url())) {
      return t;
    }
    return TargetSettings.check(url, null, t.timeoutSeconds(), t.headers(), t.verifyTls(),
        t.maxConcurrentRequests() == 0 ? null : t.maxConcurrentRequests());
  }

  private EventSourceMapping view(Trigger t, String state) {
    TriggerStatus status = runtime.get().status(t.id());
    TriggerSettings s = t.settings();
    TargetSettings target = t.target();
    return new EventSourceMapping(t.id().toString(), s.batchSize(), s.batchingWindowSeconds(), t.queueArn(),
        t.filterPatterns(), target.url(), t.lastModifiedMillis(), status.lastProcessingResult(), state,
        t.stateReason(), s.reportBatchItemFailures(), s.maximumConcurrency(), t.arn(),
        new EventSourceMapping.Target(target.protocol().name().toLowerCase(), target.timeoutSeconds(),
            List.copyOf(target.headers().keySet()), target.verifyTls(), target.maxConcurrentRequests()),
        status.lastError(), status.pollers(), status.invoking(), t.effectiveConcurrency(), t.origin());
  }

  /** The trigger id a ListEventSourceMappings Marker carries. */
  private static String markerId(String marker) {
    try {
      return UUID.fromString(new String(Base64.getUrlDecoder().decode(marker), StandardCharsets.UTF_8)).toString();
    } catch (IllegalArgumentException notOurs) {
      throw LambdaException.invalidValue("Marker is not one this API gave.");
    }
  }
}
