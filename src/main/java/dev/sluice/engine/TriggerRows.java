package dev.sluice.engine;

import dev.sluice.api.QueueKey;
import dev.sluice.model.JsonText;
import dev.sluice.persistence.TriggerStore.TriggerRow;
import dev.sluice.triggers.InvokeOutcome;
import dev.sluice.triggers.TargetSettings;
import dev.sluice.triggers.Trigger;
import dev.sluice.triggers.TriggerSettings;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A trigger as a row of sluice_triggers and back: its queue, owner and state in columns, the rest
 * in one JSON object whose keys are the admin API's (so that a row reads like the request that made
 * it). Stateless.
 */
final class TriggerRows {
  private TriggerRows() {}

  static TriggerRow rowOf(Trigger t) {
    Map<String, Object> target = new LinkedHashMap<>();
    target.put("Url", t.target().url());
    target.put("Protocol", t.target().protocol().name().toLowerCase());
    target.put("TimeoutSeconds", t.target().timeoutSeconds());
    target.put("Headers", t.target().headers());
    target.put("VerifyTls", t.target().verifyTls());
    target.put("MaxConcurrentRequests", t.target().maxConcurrentRequests());
    Map<String, Object> settings = new LinkedHashMap<>();
    settings.put("BatchSize", t.settings().batchSize());
    settings.put("MaximumBatchingWindowInSeconds", t.settings().batchingWindowSeconds());
    settings.put("ReportBatchItemFailures", t.settings().reportBatchItemFailures());
    settings.put("MaximumConcurrency", t.settings().maximumConcurrency());
    settings.put("Filters", t.filterPatterns());
    settings.put("Target", target);
    return new TriggerRow(t.id(), t.owner(), t.queue().accountId(), t.queue().region(), t.queue().name(),
        JsonText.write(settings), t.enabled(), t.stateReason(), t.origin(), t.lastModifiedMillis());
  }

  /** The trigger a row holds, as it was written: its settings were checked when they were made. */
  @SuppressWarnings("unchecked")
  static Trigger triggerOf(TriggerRow r) {
    Map<String, Object> s = JsonText.parseObject(r.settings());
    Map<String, Object> target = (Map<String, Object>) s.get("Target");
    Map<String, String> headers = new LinkedHashMap<>();
    ((Map<String, Object>) target.get("Headers")).forEach((k, v) -> headers.put(k, (String) v));
    TargetSettings t = new TargetSettings((String) target.get("Url"),
        InvokeOutcome.Protocol.valueOf(((String) target.get("Protocol")).toUpperCase()),
        number(target, "TimeoutSeconds"),
        Map.copyOf(headers), (Boolean) target.get("VerifyTls"), number(target, "MaxConcurrentRequests"));
    TriggerSettings settings = new TriggerSettings(number(s, "BatchSize"), number(s, "MaximumBatchingWindowInSeconds"),
        (Boolean) s.get("ReportBatchItemFailures"), number(s, "MaximumConcurrency"));
    List<String> filters = ((List<Object>) s.get("Filters")).stream().map(String.class::cast).toList();
    return new Trigger(r.id(), r.owner(), new QueueKey(r.queueAccount(), r.region(), r.queueName()), settings, t,
        filters, r.enabled(), r.stateReason(), r.origin(), r.modifiedAt());
  }

  private static int number(Map<String, Object> m, String key) {
    return ((Number) m.get(key)).intValue();
  }
}
