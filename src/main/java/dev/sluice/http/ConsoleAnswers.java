package dev.sluice.http;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import dev.sluice.console.ConsoleStreams;
import dev.sluice.protocol.json.JsonErrors;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;
import java.util.function.Supplier;

/**
 * How a console route answers once it has its JSON or its failure: the one place for both, so every
 * route's answers read alike. A failure is rendered as the AWS JSON protocol renders it
 * ({@link JsonErrors}), a refusal to come back later with its {@code Retry-After}. Cache-Control
 * comes from {@link ConsoleHeaders#apiResponse}, set on every API answer before the guard.
 */
final class ConsoleAnswers {
  private ConsoleAnswers() {}

  /**
   * Answers the encoded JSON {@code answer} gives (encoded where it was built: the live views on
   * the history's worker, not on this event loop); an exception it throws is its failure.
   */
  static void json(RoutingContext ctx, Supplier<Future<Buffer>> answer) {
    Future<Buffer> answered;
    try {
      answered = answer.get();
    } catch (RuntimeException refused) {
      answered = Future.failedFuture(refused);
    }
    answered.onComplete((json, failure) -> {
      if (failure != null) {
        failure(ctx, failure);
      } else if (!ctx.response().closed() && !ctx.response().ended()) {
        ctx.response().putHeader("content-type", ConsoleHeaders.JSON).end(json);
      }
    });
  }

  /** Answers {@code failure}, unless the client is gone or the response was answered already. */
  static void failure(RoutingContext ctx, Throwable failure) {
    if (ctx.response().closed() || ctx.response().ended()) {
      return;
    }
    if (failure instanceof SqsException e && e.code() == ErrorCode.TOO_MANY_STREAMS) {
      ctx.response().putHeader("retry-after", ConsoleStreams.RETRY_AFTER_SECONDS);
    } else if (failure instanceof SqsException e && e.code() == ErrorCode.SERVICE_UNAVAILABLE) {
      ctx.response().putHeader("retry-after", "1");
    }
    JsonErrors.render(ctx.response(), failure);
  }
}
