package dev.sluice;

import dev.sluice.api.Caller;
import dev.sluice.api.QueueKey;
import dev.sluice.api.triggers.EventSourceMapping;
import dev.sluice.api.triggers.LambdaException;
import dev.sluice.api.triggers.MappingRequest;
import dev.sluice.config.ConfigException;
import dev.sluice.config.SqsConfig;
import dev.sluice.config.TriggerDefinition;
import dev.sluice.engine.QueueEngine;
import dev.sluice.engine.TriggerActions;
import dev.sluice.model.QueueArns;
import dev.sluice.protocol.lambda.MappingRequests;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Keeps the triggers of the configuration's {@code triggers:} list as it says, through the same
 * calls as the admin API, so that entries are read and checked as requests are. A trigger is known
 * by its queue and target URL: an entry with none is created (its origin {@code config:<key>}); one
 * the configuration made before is changed to the entry (a field left out takes its default); one
 * made through the API is left as it is, and the log says so; a trigger the configuration made that
 * no entry names any more is deleted. Unlike queues and topics, which are only created when
 * absent, a trigger's settings are its whole meaning, and an edit of the file that were silently
 * ignored would surprise. Any refusal fails the start, naming the entry.
 */
final class PredefinedTriggers {
  private static final System.Logger LOG = System.getLogger(PredefinedTriggers.class.getName());
  static final String ORIGIN_PREFIX = "config:";

  private final TriggerActions triggers;
  /** The server acting as its operator, in the default account and region: it sees every trigger. */
  private final Caller operator;

  PredefinedTriggers(QueueEngine engine, SqsConfig sqs) {
    this.triggers = engine.startupTriggers();
    this.operator = StartupCaller.operator(sqs.accountId(), sqs.region());
  }

  Future<Void> apply(List<TriggerDefinition> entries) {
    return all(null, new ArrayList<>()).compose(existing -> {
      Set<String> kept = new HashSet<>();
      int[] counts = new int[3]; // created, changed, left alone
      Future<Void> chain = Future.succeededFuture();
      for (TriggerDefinition entry : entries) {
        MappingRequest read = read(entry);
        String queueArn = QueueArns.arnOf(new QueueKey(entry.accountId(), entry.region(), entry.queueName()));
        EventSourceMapping same = existing.stream().filter(m -> m.eventSourceArn().equals(queueArn)
            && m.functionArn().equals(read.functionName())).findFirst().orElse(null);
        String origin = ORIGIN_PREFIX + entry.key();
        if (same == null) {
          chain = chain.compose(v -> triggers.create(StartupCaller.of(entry.accountId(), entry.region()),
              withArn(read, queueArn), origin).map(made -> counts[0]++)).<Void>mapEmpty()
              .recover(failure -> Future.failedFuture(refused(entry, read, failure)));
        } else if (same.origin().startsWith(ORIGIN_PREFIX)) {
          kept.add(same.uuid());
          chain = chain.compose(v -> triggers.update(operator, same.uuid(), whole(read), origin)
              .map(changed -> counts[1]++)).<Void>mapEmpty()
              .recover(failure -> Future.failedFuture(refused(entry, read, failure)));
        } else {
          counts[2]++;
          LOG.log(System.Logger.Level.INFO, "The trigger of " + entry.key() + " (" + entry.queueName() + " → "
              + read.functionName() + ") was made through the admin API (" + same.uuid() + "): left as it is");
        }
      }
      for (EventSourceMapping m : existing) {
        if (m.origin().startsWith(ORIGIN_PREFIX) && !kept.contains(m.uuid())) {
          chain = chain.compose(v -> triggers.delete(operator, m.uuid()).<Void>mapEmpty()
              .onSuccess(gone -> LOG.log(System.Logger.Level.INFO, "Deleted trigger " + m.uuid() + " ("
                  + m.origin() + "): no entry of the configuration names it any more")));
        }
      }
      return chain.onSuccess(v -> {
        if (!entries.isEmpty()) {
          LOG.log(System.Logger.Level.INFO, "Configured triggers: " + counts[0] + " created, " + counts[1]
              + " kept as the configuration says, " + counts[2] + " made through the API left alone");
        }
      });
    });
  }

  /** Every trigger there is, page after page. */
  private Future<List<EventSourceMapping>> all(String marker, List<EventSourceMapping> into) {
    return triggers.list(operator, null, null, marker, 10_000).compose(page -> {
      into.addAll(page.mappings());
      return page.nextMarker() == null ? Future.succeededFuture(into) : all(page.nextMarker(), into);
    });
  }

  private static MappingRequest read(TriggerDefinition entry) {
    try {
      return MappingRequests.read(entry.requestJson());
    } catch (LambdaException e) {
      throw new ConfigException("Invalid value for configuration key '" + entry.key() + "' (trigger "
          + entry.queueName() + "): " + e.code().code() + ": " + e.getMessage());
    }
  }

  private static MappingRequest withArn(MappingRequest r, String queueArn) {
    return new MappingRequest(queueArn, r.functionName(), r.enabled(), r.batchSize(),
        r.maximumBatchingWindowInSeconds(), r.functionResponseTypes(), r.scalingConfig(), r.filterCriteria(),
        r.targetConfig());
  }

  /** The entry as an update that leaves nothing of the trigger's earlier settings: what it omits is the default. */
  private static MappingRequest whole(MappingRequest r) {
    return new MappingRequest(null, r.functionName(), r.enabled() == null || r.enabled(),
        r.batchSize() == null ? 10 : r.batchSize(),
        r.maximumBatchingWindowInSeconds() == null ? 0 : r.maximumBatchingWindowInSeconds(),
        r.functionResponseTypes() == null ? List.of() : r.functionResponseTypes(),
        r.scalingConfig() == null ? new MappingRequest.ScalingConfig(null) : r.scalingConfig(),
        r.filterCriteria() == null ? new MappingRequest.FilterCriteria(List.of()) : r.filterCriteria(),
        r.targetConfig() == null ? new MappingRequest.TargetConfig(null, null, null, null, null) : r.targetConfig());
  }

  private static ConfigException refused(TriggerDefinition entry, MappingRequest r, Throwable failure) {
    String reason = failure instanceof LambdaException e ? e.code().code() + ": " + e.getMessage() : failure.toString();
    return new ConfigException("Invalid value for configuration key '" + entry.key() + "' (trigger "
        + entry.queueName() + " → " + r.functionName() + "): " + reason);
  }
}
