package dev.sluice.http;

import dev.sluice.outbox.OutboxRelays;
import dev.sluice.outbox.OutboxStatus;
import io.vertx.core.Handler;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.List;

/**
 * {@code GET /console/api/outbox/sources} (src/site/markdown/outbox.md#admin-api): each outbox
 * source as this node sees it: where its database is (never its user or password), whose queues it
 * feeds, its relay's state and last error, its counters and its lag. Stateless.
 */
final class ConsoleOutbox implements Handler<RoutingContext> {
  /** Null when no source is relayed. */
  private final OutboxRelays relays;

  ConsoleOutbox(OutboxRelays relays) {
    this.relays = relays;
  }

  @Override
  public void handle(RoutingContext ctx) {
    List<OutboxStatus> sources = relays == null ? List.of() : relays.sources();
    JsonArray out = new JsonArray();
    for (OutboxStatus s : sources) {
      out.add(new JsonObject()
          .put("name", s.name())
          .put("table", s.table())
          .put("host", s.host())
          .put("port", s.port())
          .put("database", s.database())
          .put("accountId", s.accountId())
          .put("region", s.region())
          .put("state", s.state())
          .put("lastError", s.lastError())
          .put("relayed", s.relayed())
          .put("dead", s.dead())
          .put("retried", s.retried())
          .put("wakeups", new JsonObject().put("notify", s.notifyWakeups()).put("poll", s.pollWakeups()))
          .put("oldestRowAgeSeconds", s.oldestRowAgeSeconds()));
    }
    ctx.response().putHeader("content-type", ConsoleHeaders.JSON).end(new JsonObject().put("sources", out).toBuffer());
  }
}
