package dev.sluice.http;

import dev.sluice.api.QueueKey;
import dev.sluice.api.SqsException;
import dev.sluice.console.ConsoleStreams;
import dev.sluice.console.ConsoleViews;
import dev.sluice.console.EventSink;
import dev.sluice.console.HistorySampler;
import dev.sluice.console.OverviewQuery;
import dev.sluice.console.OverviewStream;
import dev.sluice.console.QueueStream;
import dev.sluice.console.StreamView;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;

/**
 * The console's live routes (design/console.md §2.6): the overview, the topics, one queue's history
 * and the server-sent event stream, answered from the sampler's history. No guard here: they are
 * mounted behind the console's guard. Answers and errors go out through {@link ConsoleAnswers}.
 */
final class ConsoleLive {
  private final HistorySampler sampler;
  private final ConsoleStreams streams;
  private final Callers callers;
  private final String defaultAccount;

  /**
   * {@code callers} give rows the queue URLs SQS answers with (http.publicBaseUrl, else the Host the
   * browser used); {@code defaultAccount} is sqs.accountId, the overview's default.
   */
  ConsoleLive(HistorySampler sampler, ConsoleStreams streams, Callers callers, String defaultAccount) {
    this.sampler = sampler;
    this.streams = streams;
    this.callers = callers;
    this.defaultAccount = defaultAccount;
  }

  /** Adds the four routes to the console's API. */
  ConsoleApi addTo(ConsoleApi api) {
    return api.route(HttpMethod.GET, "queues", this::queues)
        .route(HttpMethod.GET, "topics", this::topics)
        .route(HttpMethod.GET, "queues/:account/:region/:name/history", this::history)
        .route(HttpMethod.GET, "stream", this::stream);
  }

  /** {@code GET queues?filter=&type=&sort=&order=&offset=&limit=&accounts=}. */
  void queues(RoutingContext ctx) {
    String baseUrl = baseUrl(ctx);
    ConsoleAnswers.json(ctx, () -> {
      OverviewQuery q = OverviewQuery.parse(ctx.request()::getParam);
      return sampler.read(h -> ConsoleViews.overview(h, q, baseUrl, defaultAccount).toBuffer());
    });
  }

  /** {@code GET topics}. */
  void topics(RoutingContext ctx) {
    ConsoleAnswers.json(ctx, () -> sampler.read(h -> ConsoleViews.topics(h).toBuffer()));
  }

  /** {@code GET queues/{account}/{region}/{name}/history}. */
  void history(RoutingContext ctx) {
    QueueKey key = new QueueKey(ctx.pathParam("account"), ctx.pathParam("region"), ctx.pathParam("name"));
    ConsoleAnswers.json(ctx, () -> sampler.read(h -> ConsoleViews.history(h, key).toBuffer()));
  }

  /** {@code GET stream?view=overview&<queues' parameters>} or {@code ?view=queue&q={account}/{region}/{name}}. */
  void stream(RoutingContext ctx) {
    StreamView view;
    try {
      view = view(ctx);
    } catch (RuntimeException refused) {
      ConsoleAnswers.failure(ctx, refused);
      return;
    }
    streams.open(ctx.vertx().getOrCreateContext(), EventSink.of(ctx.response(), ConsoleStreams.WRITE_QUEUE_BYTES),
        view).onFailure(refused -> ConsoleAnswers.failure(ctx, refused));
  }

  private StreamView view(RoutingContext ctx) {
    String view = ctx.request().getParam("view");
    if (view == null || view.equals("overview")) {
      return new OverviewStream(OverviewQuery.parse(ctx.request()::getParam), baseUrl(ctx), defaultAccount);
    }
    if (!view.equals("queue")) {
      throw SqsException.invalidValue(view, "view", "must be overview or queue.");
    }
    String q = ctx.request().getParam("q");
    String[] parts = q == null ? new String[0] : q.split("/", -1);
    if (parts.length != 3 || parts[0].isEmpty() || parts[1].isEmpty() || parts[2].isEmpty()) {
      throw SqsException.invalidValue(q, "q", "must be {account}/{region}/{name}.");
    }
    return new QueueStream(new QueueKey(parts[0], parts[1], parts[2]), baseUrl(ctx));
  }

  private String baseUrl(RoutingContext ctx) {
    return callers.of(ctx.request(), null).baseUrl();
  }
}
