package dev.sluice.http;

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
  /** Ticks the fine ring keeps, minutes the coarse one keeps, and a coarse slot's length. */
  static final int FINE_SLOTS = 120;
  static final int COARSE_SLOTS = 60;
  static final int COARSE_MILLIS = 60_000;

  private final ConsoleSettings settings;
  private final Supplier<String> notReadyReason;

  ConsoleStatus(ConsoleSettings settings, Supplier<String> notReadyReason) {
    this.settings = settings;
    this.notReadyReason = notReadyReason;
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
        .put("fineSlots", FINE_SLOTS)
        .put("coarseSlots", COARSE_SLOTS)
        .put("coarseMillis", COARSE_MILLIS)
        .put("historySeries", settings.config().historySeries())
        .put("maxStreams", settings.config().maxStreams())
        .put("time", System.currentTimeMillis());
    ctx.response().putHeader("content-type", ConsoleHeaders.JSON).end(status.toBuffer());
  }
}
