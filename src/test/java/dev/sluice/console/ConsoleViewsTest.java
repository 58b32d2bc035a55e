package dev.sluice.console;

import static dev.sluice.console.Samples.arn;
import static dev.sluice.console.Samples.idle;
import static dev.sluice.console.Samples.key;
import static dev.sluice.console.Samples.queue;
import static dev.sluice.console.Samples.topic;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.QueueKey;
import dev.sluice.api.SqsException;
import dev.sluice.engine.QueueSample;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JSON of design/console.md §2.6, from a history filled by hand. */
class ConsoleViewsTest {
  static final String BASE = "http://127.0.0.1:9324";
  long now = 1_764_300_000_000L;
  final ConsoleHistory h = new ConsoleHistory(5000, 100);

  void tick(QueueSample... samples) {
    h.record(now += 5000, List.of(samples), List.of());
  }

  static QueueSample withDlq(String name, String dlq, int visible) {
    return new QueueSample(key(name), 1, arn(dlq), visible, 0, 0, 0, 0, 0, 0);
  }

  JsonObject overview(Map<String, String> params) {
    return ConsoleViews.overview(h, OverviewQuery.parse(params::get), BASE, Samples.ACCOUNT);
  }

  static List<String> names(JsonObject answer) {
    List<String> out = new ArrayList<>();
    answer.getJsonArray("rows").forEach(r -> out.add(((JsonObject) r).getString("name")));
    return out;
  }

  @Test
  void aRowCarriesItsUrlRatesSourcesAndDepth() {
    tick(queue("orders", 2, 1, 1, 10, 5, 0), withDlq("payments", "orders", 0), idle("quiet"));
    tick(queue("orders", 3, 1, 0, 12, 6, 1), withDlq("payments", "orders", 0), idle("quiet"));
    JsonObject answer = overview(Map.of());
    assertEquals(3, answer.getInteger("total"));
    assertEquals(now, answer.getLong("time"));
    assertEquals(5000, answer.getInteger("sampleMillis"));
    JsonObject orders = answer.getJsonArray("rows").getJsonObject(0);
    assertEquals(new JsonObject().put("account", "000000000000").put("region", "us-east-1").put("name", "orders")
        .put("arn", "arn:aws:sqs:us-east-1:000000000000:orders").put("url", BASE + "/000000000000/orders")
        .put("fifo", false).put("visible", 3).put("inflight", 1).put("delayed", 0).put("oldestAgeMillis", 0L)
        .put("arrivedPerSecond", 0.4).put("receivedPerSecond", 0.2).put("deletedPerSecond", 0.2)
        .put("deadLetterTargetArn", null).put("deadLetterSources", new JsonArray().add(arn("payments")))
        .put("depth", new JsonArray().add(4).add(4)), orders);
    JsonObject quiet = answer.getJsonArray("rows").getJsonObject(2);
    assertEquals(new JsonArray().addNull().addNull(), quiet.getJsonArray("depth"), "no history kept for it");
    assertEquals(arn("orders"), answer.getJsonArray("rows").getJsonObject(1).getString("deadLetterTargetArn"));

    tick(queue("orders", 3, 1, 0, 12, 6, 1), queue("payments", 0, 0, 0, 0, 0, 0), idle("quiet"));
    assertEquals(new JsonArray(), overview(Map.of()).getJsonArray("rows").getJsonObject(0)
        .getJsonArray("deadLetterSources"), "payments no longer names orders");
    tick(queue("orders", 3, 1, 0, 12, 6, 1), withDlq("payments", "orders", 0), idle("quiet"));
    tick(queue("orders", 3, 1, 0, 12, 6, 1), idle("quiet"));
    assertEquals(new JsonArray(), overview(Map.of()).getJsonArray("rows").getJsonObject(0)
        .getJsonArray("deadLetterSources"), "payments deleted");
  }

  @Test
  void theOverviewFiltersSortsAndPages() {
    tick(queue("b", 5, 0, 0, 0, 0, 0), queue("a.fifo", 1, 0, 0, 0, 0, 0), queue("C", 5, 0, 0, 0, 0, 0),
        withDlq("src", "a.fifo", 0),
        new QueueSample(new QueueKey("111111111111", "us-east-1", "other"), 1, null, 9, 0, 0, 0, 0, 0, 0));
    assertEquals(List.of("C", "a.fifo", "b", "src"), names(overview(Map.of())));
    assertEquals(List.of("C", "a.fifo", "b", "other", "src"), names(overview(Map.of("accounts", "all"))));
    assertEquals(List.of("a.fifo"), names(overview(Map.of("type", "fifo"))));
    assertEquals(List.of("C", "b", "src"), names(overview(Map.of("type", "standard"))));
    assertEquals(List.of("a.fifo"), names(overview(Map.of("type", "dlq"))));
    assertEquals(List.of("C", "src"), names(overview(Map.of("filter", "c"))), "a substring, case-insensitive");
    assertEquals(List.of("C", "b", "a.fifo", "src"), names(overview(Map.of("sort", "visible", "order", "desc"))),
        "ties by name");
    assertEquals(List.of("src", "b", "a.fifo", "C"), names(overview(Map.of("order", "desc"))));
    JsonObject page = overview(Map.of("offset", "1", "limit", "2"));
    assertEquals(List.of("a.fifo", "b"), names(page));
    assertEquals(4, page.getInteger("total"));
    assertEquals(1, page.getInteger("offset"));
    assertEquals(List.of(), names(overview(Map.of("offset", "10"))));
  }

  @Test
  void badParametersAreInvalidParameterValue() {
    for (Map<String, String> bad : List.of(Map.of("sort", "size"), Map.of("order", "up"), Map.of("type", "x"),
        Map.of("limit", "0"), Map.of("limit", "501"), Map.of("offset", "-1"), Map.of("offset", "one"),
        Map.of("accounts", "some"))) {
      SqsException e = assertThrows(SqsException.class, () -> OverviewQuery.parse(bad::get), bad.toString());
      assertEquals(ErrorCode.INVALID_PARAMETER_VALUE, e.code());
    }
  }

  @Test
  void aHistoryHasColumnsPerSlotAndIsNotFoundForAnUnknownQueue() {
    tick(queue("a", 1, 0, 0, 0, 0, 0), idle("b"));
    tick(queue("a", 2, 1, 0, 3, 0, 0), idle("b"));
    JsonObject history = ConsoleViews.history(h, key("a"));
    assertEquals(true, history.getBoolean("kept"));
    assertEquals(now - 5000, history.getLong("since"));
    JsonObject fine = history.getJsonObject("fine");
    assertEquals(now - 5000, fine.getLong("start"));
    assertEquals(5000, fine.getInteger("step"));
    assertEquals(new JsonArray().add(1).add(2), fine.getJsonArray("visible"));
    assertEquals(new JsonArray().add(0).add(3), fine.getJsonArray("arrived"));
    JsonObject coarse = history.getJsonObject("coarse");
    assertEquals(60000, coarse.getInteger("step"));
    assertEquals(new JsonArray().add(3), coarse.getJsonArray("arrived"), "summed in its minute");
    assertEquals(new JsonArray().add(2), coarse.getJsonArray("visible"), "the minute's last");
    JsonObject notKept = ConsoleViews.history(h, key("b"));
    assertEquals(false, notKept.getBoolean("kept"));
    assertEquals(new JsonArray(), notKept.getJsonObject("fine").getJsonArray("visible"));
    SqsException e = assertThrows(SqsException.class, () -> ConsoleViews.history(h, key("nope")));
    assertEquals(ErrorCode.QUEUE_DOES_NOT_EXIST, e.code());
  }

  @Test
  void topicsAreSortedByNameWithTheirRates() {
    h.record(now, List.of(), List.of(topic("z", 0, 0), topic("m", 10, 20)));
    h.record(now += 5000, List.of(), List.of(topic("z", 0, 0), topic("m", 15, 30)));
    JsonArray rows = ConsoleViews.topics(h).getJsonArray("rows");
    assertEquals(new JsonObject().put("account", "000000000000").put("region", "us-east-1").put("name", "m")
        .put("arn", "arn:aws:sns:us-east-1:000000000000:m").put("published", 15L).put("delivered", 30L)
        .put("filteredOut", 0L).put("failed", 0L).put("publishedPerSecond", 1.0).put("deliveredPerSecond", 2.0),
        rows.getJsonObject(0));
    assertEquals("z", rows.getJsonObject(1).getString("name"));
  }
}
