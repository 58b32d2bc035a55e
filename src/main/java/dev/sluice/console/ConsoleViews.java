package dev.sluice.console;

import dev.sluice.api.QueueKey;
import dev.sluice.api.SqsException;
import dev.sluice.engine.QueueUrls;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The JSON the console's pages read (design/console.md §2.6): the overview and its rows, the
 * topics, one queue's history. Built from a {@link ConsoleHistory} on its worker thread, so each
 * answer is a copy the HTTP layer may send from any thread.
 */
public final class ConsoleViews {
  private static final Comparator<QueueRow> BY_NAME = Comparator.<QueueRow, String>comparing(r -> r.key.name())
      .thenComparing(r -> r.key.accountId()).thenComparing(r -> r.key.region());

  private ConsoleViews() {}

  /** {@code {"time", "sampleMillis", "total", "offset", "rows"}}: one page of the queues {@code q} selects. */
  public static JsonObject overview(ConsoleHistory h, OverviewQuery q, String baseUrl, String defaultAccount) {
    List<QueueRow> matching = select(h, q, defaultAccount);
    JsonArray rows = new JsonArray();
    for (QueueRow r : page(matching, q)) {
      rows.add(row(h, r, baseUrl, true));
    }
    return new JsonObject().put("time", h.timeMillis()).put("sampleMillis", h.sampleMillis())
        .put("total", matching.size()).put("offset", q.offset()).put("rows", rows);
  }

  /** Every queue {@code q} selects, in its order. */
  static List<QueueRow> select(ConsoleHistory h, OverviewQuery q, String defaultAccount) {
    List<QueueRow> out = new ArrayList<>();
    for (QueueRow r : h.queues()) {
      if ((q.allAccounts() || r.key.accountId().equals(defaultAccount)) && typeMatches(h, r, q.type())
          && (q.filter().isEmpty() || r.key.name().toLowerCase(java.util.Locale.ROOT).contains(q.filter()))) {
        out.add(r);
      }
    }
    out.sort(order(q));
    return out;
  }

  static List<QueueRow> page(List<QueueRow> matching, OverviewQuery q) {
    int from = Math.min(q.offset(), matching.size());
    return matching.subList(from, Math.min(matching.size(), from + q.limit()));
  }

  private static boolean typeMatches(ConsoleHistory h, QueueRow r, String type) {
    return switch (type) {
      case "standard" -> !r.fifo;
      case "fifo" -> r.fifo;
      case "dlq" -> h.isDeadLetterQueue(r.arn);
      default -> true;
    };
  }

  private static Comparator<QueueRow> order(OverviewQuery q) {
    if (q.sort().equals("name")) {
      return q.descending() ? BY_NAME.reversed() : BY_NAME;
    }
    Comparator<QueueRow> primary = Comparator.comparingDouble(column(q.sort()));
    return (q.descending() ? primary.reversed() : primary).thenComparing(BY_NAME);
  }

  private static ToDoubleFunction<QueueRow> column(String sort) {
    return switch (sort) {
      case "type" -> r -> r.fifo ? 1 : 0;
      case "visible" -> r -> r.visible;
      case "inflight" -> r -> r.inflight;
      case "delayed" -> r -> r.delayed;
      case "oldest" -> r -> r.oldestAgeMillis;
      case "arrived" -> r -> r.perSecond(r.arrivedDelta);
      case "received" -> r -> r.perSecond(r.receivedDelta);
      case "deleted" -> r -> r.perSecond(r.deletedDelta);
      default -> throw new IllegalArgumentException(sort);
    };
  }

  /** An overview row; with {@code depth}, its sparkline over the fine ring. */
  static JsonObject row(ConsoleHistory h, QueueRow r, String baseUrl, boolean depth) {
    JsonObject row = new JsonObject().put("account", r.key.accountId()).put("region", r.key.region())
        .put("name", r.key.name()).put("arn", r.arn).put("url", QueueUrls.urlOf(baseUrl, r.key)).put("fifo", r.fifo)
        .put("visible", r.visible).put("inflight", r.inflight).put("delayed", r.delayed)
        .put("oldestAgeMillis", r.oldestAgeMillis).put("arrivedPerSecond", r.perSecond(r.arrivedDelta))
        .put("receivedPerSecond", r.perSecond(r.receivedDelta)).put("deletedPerSecond", r.perSecond(r.deletedDelta))
        .put("deadLetterTargetArn", r.deadLetterTargetArn)
        .put("deadLetterSources", new JsonArray(new ArrayList<Object>(h.deadLetterSources(r.arn))));
    if (depth) {
      JsonArray points = new JsonArray();
      for (long t = h.firstFineTick(); t <= h.tick(); t++) {
        points.add(depthAt(r.series, t));
      }
      row.put("depth", points);
    }
    return row;
  }

  /** Visible + in flight + delayed at tick {@code t}, or null where no sample was kept. */
  static Integer depthAt(Series s, long t) {
    if (s == null || s.fineAt(0, t) == Series.NONE) {
      return null;
    }
    return s.fineAt(0, t) + s.fineAt(1, t) + s.fineAt(2, t);
  }

  /** {@code {"time", "rows"}}: every topic, by name. */
  public static JsonObject topics(ConsoleHistory h) {
    List<TopicRow> all = new ArrayList<>(h.topics());
    all.sort(Comparator.<TopicRow, String>comparing(t -> t.key.name()).thenComparing(t -> t.key.accountId())
        .thenComparing(t -> t.key.region()));
    JsonArray rows = new JsonArray();
    for (TopicRow t : all) {
      rows.add(new JsonObject().put("account", t.key.accountId()).put("region", t.key.region())
          .put("name", t.key.name()).put("arn", t.key.arn()).put("published", t.published)
          .put("delivered", t.delivered).put("filteredOut", t.filteredOut).put("failed", t.failed)
          .put("publishedPerSecond", t.perSecond(t.publishedDelta))
          .put("deliveredPerSecond", t.perSecond(t.deliveredDelta)));
    }
    return new JsonObject().put("time", h.timeMillis()).put("rows", rows);
  }

  /** One queue's kept history; QueueDoesNotExist when no queue of that key was sampled. */
  public static JsonObject history(ConsoleHistory h, QueueKey key) {
    QueueRow r = h.queue(key);
    if (r == null) {
      throw SqsException.queueDoesNotExist();
    }
    return history(h, r);
  }

  static final List<String> QUEUE_COLUMNS = List.of("visible", "inflight", "delayed", "arrived", "received", "deleted");

  static JsonObject history(ConsoleHistory h, QueueRow r) {
    Series s = r.series;
    JsonObject fine = new JsonObject().put("start", h.tickMillis(h.firstFineTick())).put("step", h.sampleMillis());
    JsonObject coarse = new JsonObject().put("start", h.firstCoarseMinute() * ConsoleHistory.COARSE_MILLIS)
        .put("step", ConsoleHistory.COARSE_MILLIS);
    for (int c = 0; c < QUEUE_COLUMNS.size(); c++) {
      JsonArray fineColumn = new JsonArray();
      JsonArray coarseColumn = new JsonArray();
      if (s != null) {
        for (long t = h.firstFineTick(); t <= h.tick(); t++) {
          fineColumn.add(orNull(s.fineAt(c, t)));
        }
        for (long m = h.firstCoarseMinute(); m <= h.minute(); m++) {
          coarseColumn.add(orNull(s.coarseAt(c, m)));
        }
      }
      fine.put(QUEUE_COLUMNS.get(c), fineColumn);
      coarse.put(QUEUE_COLUMNS.get(c), coarseColumn);
    }
    return new JsonObject().put("time", h.timeMillis()).put("kept", s != null)
        .put("since", s == null ? null : s.sinceMillis).put("fine", fine).put("coarse", coarse);
  }

  private static Integer orNull(int value) {
    return value == Series.NONE ? null : value;
  }
}
