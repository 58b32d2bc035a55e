package dev.sluice.console;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * The overview's stream: the overview answer first, then per tick the page's rows without their
 * sparklines and each row's new depth point (null where its history is not kept).
 */
public final class OverviewStream implements StreamView {
  private final OverviewQuery query;
  private final String baseUrl;
  private final String defaultAccount;

  public OverviewStream(OverviewQuery query, String baseUrl, String defaultAccount) {
    this.query = query;
    this.baseUrl = baseUrl;
    this.defaultAccount = defaultAccount;
  }

  @Override
  public StreamEvent open(ConsoleHistory h) {
    return new StreamEvent("snapshot", ConsoleViews.overview(h, query, baseUrl, defaultAccount), false);
  }

  @Override
  public StreamEvent tick(ConsoleHistory h) {
    // Streams of the same query (tabs showing the same page) share one selection and sort per tick.
    List<QueueRow> matching = h.sharedThisTick(List.of(query, defaultAccount),
        () -> ConsoleViews.select(h, query, defaultAccount));
    JsonArray rows = new JsonArray();
    JsonObject depth = new JsonObject();
    for (QueueRow r : ConsoleViews.page(matching, query)) {
      rows.add(ConsoleViews.row(h, r, baseUrl, false));
      depth.put(r.path(), ConsoleViews.depthAt(r.series, h.tick()));
    }
    return new StreamEvent("tick", new JsonObject().put("time", h.timeMillis()).put("total", matching.size())
        .put("offset", query.offset()).put("rows", rows).put("depth", depth), false);
  }

  @Override
  public void close(ConsoleHistory h) {}
}
