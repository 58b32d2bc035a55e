package dev.sluice.http;

import dev.sluice.api.Caller;
import dev.sluice.api.triggers.LambdaErrorCode;
import dev.sluice.api.triggers.LambdaException;
import dev.sluice.auth.Identity;
import dev.sluice.engine.TriggerActions;
import dev.sluice.protocol.lambda.LambdaErrors;
import dev.sluice.protocol.lambda.MappingRequests;
import dev.sluice.protocol.lambda.MappingResponses;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.HttpException;
import dev.sluice.model.Ids;
import java.util.function.Function;

/**
 * The triggers' admin API on Lambda's REST paths (design/triggers.md §2.4), behind the management
 * token: POST and GET of {@code /2015-03-31/event-source-mappings/} create and list, GET, PUT and
 * DELETE of {@code …/{UUID}} read, change and delete. Bodies are read only once the token is
 * checked, and only up to {@link #MAX_BODY_BYTES}. The caller is the operator, acting as the
 * default account: triggers it makes consume as that account.
 */
final class TriggerAdmin {
  static final String PREFIX = "/2015-03-31/";
  static final String MAPPINGS = PREFIX + "event-source-mappings";
  static final int MAX_BODY_BYTES = 256 * 1024;

  private final TriggerActions triggers;
  private final Callers callers;
  private final Identity operator;

  TriggerAdmin(TriggerActions triggers, Callers callers, Identity operator) {
    this.triggers = triggers;
    this.callers = callers;
    this.operator = operator;
  }

  /** Mounts the routes on {@code router}, each behind {@code guard}. */
  void mount(Router router, ManagementGuard guard) {
    router.route(PREFIX + "*").handler(guard);
    router.route(PREFIX + "*").handler(BodyHandler.create().setBodyLimit(MAX_BODY_BYTES));
    router.route(PREFIX + "*").failureHandler(ctx -> LambdaErrors.render(ctx.response(), Ids.uuid(), failure(ctx)));
    router.routeWithRegex(MAPPINGS + "/?").handler(ctx -> {
      HttpMethod m = ctx.request().method();
      if (m == HttpMethod.POST) {
        answer(ctx, 202, c -> triggers.create(c, MappingRequests.read(body(ctx)), "api").map(MappingResponses::json));
      } else if (m == HttpMethod.GET) {
        answer(ctx, 200, c -> triggers.list(c, ctx.queryParams().get("EventSourceArn"),
            ctx.queryParams().get("FunctionName"), ctx.queryParams().get("Marker"), maxItems(ctx))
            .map(MappingResponses::page));
      } else {
        ctx.response().setStatusCode(405).end();
      }
    });
    router.route(MAPPINGS + "/:uuid").handler(ctx -> {
      HttpMethod m = ctx.request().method();
      String id = ctx.pathParam("uuid");
      if (m == HttpMethod.GET) {
        answer(ctx, 200, c -> triggers.get(c, id).map(MappingResponses::json));
      } else if (m == HttpMethod.PUT) {
        answer(ctx, 202, c -> triggers.update(c, id, MappingRequests.read(body(ctx)), null).map(MappingResponses::json));
      } else if (m == HttpMethod.DELETE) {
        answer(ctx, 202, c -> triggers.delete(c, id).map(MappingResponses::json));
      } else {
        ctx.response().setStatusCode(405).end();
      }
    });
    router.route(PREFIX + "*").handler(ctx -> ctx.response().setStatusCode(404).end());
  }

  private void answer(RoutingContext ctx, int status, Function<Caller, Future<JsonObject>> action) {
    Caller c = callers.ofOperator(ctx.request(), operator);
    Future<JsonObject> answered;
    try {
      answered = action.apply(c);
    } catch (RuntimeException refused) {
      answered = Future.failedFuture(refused);
    }
    answered.onComplete((json, failure) -> {
      if (failure != null) {
        LambdaErrors.render(ctx.response(), c.requestId(), failure);
      } else {
        ctx.response().setStatusCode(status).putHeader("content-type", "application/json")
            .putHeader("x-amzn-RequestId", c.requestId()).end(json.encode());
      }
    });
  }

  /**
   * What a route that failed before its handler answered (the body handler: too large, unreadable)
   * is answered: Lambda's RequestTooLargeException for a body over the bound, InvalidParameterValue
   * for any other request the router could not read, the failure itself otherwise.
   */
  private static Throwable failure(RoutingContext ctx) {
    int status = ctx.failure() instanceof HttpException e ? e.getStatusCode() : ctx.statusCode();
    if (status == 413) {
      return new LambdaException(LambdaErrorCode.REQUEST_TOO_LARGE, "The request body is larger than "
          + MAX_BODY_BYTES + " bytes.");
    }
    if (ctx.failure() == null || ctx.failure() instanceof HttpException) {
      return LambdaException.invalidValue("The request could not be read.");
    }
    return ctx.failure();
  }

  private static String body(RoutingContext ctx) {
    return ctx.body().asString("UTF-8");
  }

  private static Integer maxItems(RoutingContext ctx) {
    String given = ctx.queryParams().get("MaxItems");
    if (given == null) {
      return null;
    }
    try {
      return Integer.valueOf(given);
    } catch (NumberFormatException notANumber) {
      throw new LambdaException(LambdaErrorCode.VALIDATION, "1 validation error detected: Value '" + given
          + "' at 'maxItems' failed to satisfy constraint: Member must be a number");
    }
  }
}
