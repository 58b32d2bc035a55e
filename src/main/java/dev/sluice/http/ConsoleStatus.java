package dev.sluice.http;

import dev.sluice.console.ConsoleData;
import dev.sluice.console.ConsoleHistory;
import io.vertx.core.Handler;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.function.Supplier;

/**
 * {@code GET /console/api/status} (design/console.md §2.6): the server's version, readiness and
 * mode, the operator's account and region, whether a token is required, and the history's shape,
 * which the pages size their charts by. Stateless.
 */
final class ConsoleStatus implements Handler<RoutingContext> {
  private final ConsoleSettings settings;
  private final Supplier<String> notReadyReason;
  private final ConsoleData data;

  ConsoleStatus(ConsoleSettings settings, Supplier<String> notReadyReason, ConsoleData data) {
    this.settings = settings;
    this.notReadyReason = notReadyReason;
    this.data = data;
  }

  @Override
  public void handle(RoutingContext ctx) {
    String reason = notReadyReason.get();
    JsonObject status = new JsonObject()
        .put("version", settings.version())
        .put("ready", reason == null)
        .put("reason", reason)
        .put("mode", settings.mode())
        .put("accountId", settings.sqs().accountId())
        .put("region", settings.sqs().region())
        .put("tokenRequired", settings.policy().token().required())
        .put("sampleMillis", settings.config().sampleMillis())
        .put("fineSlots", ConsoleHistory.FINE_SLOTS)
        .put("coarseSlots", ConsoleHistory.COARSE_SLOTS)
        .put("coarseMillis", ConsoleHistory.COARSE_MILLIS)
        .put("historySeries", settings.config().historySeries())
        .put("historyBytes", data.sampler().retainedBytes())
        .put("series", data.sampler().series())
        .put("maxStreams", settings.config().maxStreams())
        .put("streams", data.streams().openStreams())
        .put("time", System.currentTimeMillis());
    ctx.response().putHeader("content-type", ConsoleHeaders.JSON).end(status.toBuffer());
  }
}
