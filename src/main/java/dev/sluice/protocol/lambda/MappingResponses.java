package dev.sluice.protocol.lambda;

import dev.sluice.api.triggers.EventSourceMapping;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;

/**
 * Writes event source mappings as Lambda answers them (its EventSourceMappingConfiguration, keys in
 * the order of AWS's recorded answers; FilterCriteria and ScalingConfig only when set), then
 * Sluice's additions: TargetConfig (header names only, their values never), LastError,
 * Concurrency and Origin (design/triggers.md §2.4). Stateless.
 */
public final class MappingResponses {
  private MappingResponses() {}

  public static JsonObject json(EventSourceMapping m) {
    JsonObject out = new JsonObject()
        .put("UUID", m.uuid())
        .put("BatchSize", m.batchSize())
        .put("MaximumBatchingWindowInSeconds", m.maximumBatchingWindowInSeconds())
        .put("EventSourceArn", m.eventSourceArn());
    if (!m.filterPatterns().isEmpty()) {
      JsonArray filters = new JsonArray();
      m.filterPatterns().forEach(p -> filters.add(new JsonObject().put("Pattern", p)));
      out.put("FilterCriteria", new JsonObject().put("Filters", filters));
    }
    out.put("FunctionArn", m.functionArn())
        .put("LastModified", seconds(m.lastModifiedMillis()))
        .put("LastProcessingResult", m.lastProcessingResult())
        .put("State", m.state())
        .put("StateTransitionReason", m.stateTransitionReason())
        .put("FunctionResponseTypes", m.reportBatchItemFailures()
            ? new JsonArray().add("ReportBatchItemFailures") : new JsonArray());
    if (m.maximumConcurrency() > 0) {
      out.put("ScalingConfig", new JsonObject().put("MaximumConcurrency", m.maximumConcurrency()));
    }
    out.put("EventSourceMappingArn", m.eventSourceMappingArn());
    EventSourceMapping.Target t = m.target();
    JsonObject headers = new JsonObject();
    t.headerNames().forEach(name -> headers.put(name, "<redacted>"));
    out.put("TargetConfig", new JsonObject().put("Protocol", t.protocol()).put("TimeoutSeconds", t.timeoutSeconds())
        .put("Headers", headers).put("VerifyTls", t.verifyTls())
        .put("MaxConcurrentRequests", t.maxConcurrentRequests() == 0 ? null : t.maxConcurrentRequests()));
    EventSourceMapping.LastError e = m.lastError();
    if (e != null) {
      out.put("LastError", new JsonObject().put("Time", seconds(e.timeMillis())).put("Kind", e.kind())
          .put("HttpStatus", e.httpStatus() == 0 ? null : e.httpStatus()).put("Records", e.records())
          .put("Message", e.message()));
    }
    out.put("Concurrency", new JsonObject().put("Pollers", m.pollers()).put("Invoking", m.invoking())
        .put("Maximum", m.maximum()));
    out.put("Origin", m.origin());
    return out;
  }

  public static JsonObject page(EventSourceMapping.Page page) {
    JsonArray mappings = new JsonArray();
    page.mappings().forEach(m -> mappings.add(json(m)));
    JsonObject out = new JsonObject().put("EventSourceMappings", mappings);
    if (page.nextMarker() != null) {
      out.put("NextMarker", page.nextMarker());
    }
    return out;
  }

  /** Epoch seconds with milliseconds, a JSON number, as Lambda writes its timestamps. */
  private static BigDecimal seconds(long millis) {
    return BigDecimal.valueOf(millis, 3);
  }
}
