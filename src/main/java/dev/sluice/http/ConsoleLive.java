package dev.sluice.http;

import dev.sluice.api.ErrorCode;
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
import dev.sluice.protocol.json.JsonErrors;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * The console's live routes (design/console.md §2.6): the overview, the topics, one queue's history
 * and the server-sent event stream, answered from the sampler's history. No guard here: they are
 * mounted behind the console's guard. Errors are the AWS JSON protocol's, rendered by
 * {@link JsonErrors}; TooManyStreams comes with {@code Retry-After}.
 */
public final class ConsoleLive {
  private final HistorySampler sampler;
  private final ConsoleStreams streams;
  private final Callers callers;
  private final String defaultAccount;

  /**
   * {@code publicBaseUrl} as http.publicBaseUrl (empty: the Host the browser used), so rows carry
   * queue URLs as SQS answers them; {@code defaultAccount} is sqs.accountId, the overview's default.
   */
  public ConsoleLive(HistorySampler sampler, ConsoleStreams streams, String publicBaseUrl, String defaultAccount) {
    this.sampler = sampler;
    this.streams = streams;
    this.callers = new Callers(publicBaseUrl);
    this.defaultAccount = defaultAccount;
  }

  /** Mounts the four routes under {@code apiPrefix} (such as {@code /console/api}). */
  public void mount(Router router, String apiPrefix) {
    router.get(apiPrefix + "/queues").handler(this::queues);
    router.get(apiPrefix + "/topics").handler(this::topics);
    router.get(apiPrefix + "/queues/:account/:region/:name/history").handler(this::history);
    router.get(apiPrefix + "/stream").handler(this::stream);
  }

  /** {@code GET queues?filter=&type=&sort=&order=&offset=&limit=&accounts=}. */
  public void queues(RoutingContext ctx) {
    String baseUrl = baseUrl(ctx);
    answer(ctx, () -> {
      OverviewQuery q = OverviewQuery.parse(ctx.request()::getParam);
      return sampler.read(h -> ConsoleViews.overview(h, q, baseUrl, defaultAccount));
    });
  }

  /** {@code GET topics}. */
  public void topics(RoutingContext ctx) {
    answer(ctx, () -> sampler.read(ConsoleViews::topics));
  }

  /** {@code GET queues/{account}/{region}/{name}/history}. */
  public void history(RoutingContext ctx) {
    QueueKey key = new QueueKey(ctx.pathParam("account"), ctx.pathParam("region"), ctx.pathParam("name"));
    answer(ctx, () -> sampler.read(h -> ConsoleViews.history(h, key)));
  }

  /** {@code GET stream?view=overview&<queues' parameters>} or {@code ?view=queue&q={account}/{region}/{name}}. */
  public void stream(RoutingContext ctx) {
    StreamView view;
    try {
      view = view(ctx);
    } catch (RuntimeException refused) {
      refuse(ctx, refused);
      return;
    }
    streams.open(ctx.vertx().getOrCreateContext(), EventSink.of(ctx.response(), ConsoleStreams.WRITE_QUEUE_BYTES),
        view).onFailure(refused -> refuse(ctx, refused));
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

  private interface Answer {
    Future<JsonObject> get();
  }

  private static void answer(RoutingContext ctx, Answer answer) {
    Future<JsonObject> answered;
    try {
      answered = answer.get();
    } catch (RuntimeException refused) {
      answered = Future.failedFuture(refused);
    }
    answered.onComplete((json, failure) -> {
      if (failure != null) {
        refuse(ctx, failure);
      } else if (!ctx.response().closed()) {
        ctx.response().putHeader("Content-Type", "application/json; charset=utf-8")
            .putHeader("Cache-Control", "no-store").end(json.toBuffer());
      }
    });
  }

  private static void refuse(RoutingContext ctx, Throwable failure) {
    if (ctx.response().closed() || ctx.response().ended()) {
      return;
    }
    if (failure instanceof SqsException e && e.code() == ErrorCode.TOO_MANY_STREAMS) {
      ctx.response().putHeader("Retry-After", ConsoleStreams.RETRY_AFTER_SECONDS);
    }
    ctx.response().putHeader("Cache-Control", "no-store");
    JsonErrors.render(ctx.response(), failure);
  }
}
