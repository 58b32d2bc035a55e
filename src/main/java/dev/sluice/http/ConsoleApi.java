package dev.sluice.http;

import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The console's JSON API under {@code /console/api/} (design/console.md §2.6): a list of routes,
 * each a handler class of its own, all mounted behind {@link ConsoleGuard} by {@link ConsoleRoutes}
 * (the guard, then the media-type check of POST bodies, then these). A path no route takes
 * answers 404 NotFound there. A handler that reads a body reads it through {@link BodyReader},
 * so that it is charged to the server's budget of request bytes.
 *
 * <p>The routes are listed where the API is built, {@code SqsHttpVerticle#consoleApi} (the live
 * ones through {@code ConsoleLive#addTo}): a new route is one {@link #route} line there.
 */
final class ConsoleApi {
  static final String PREFIX = "/console/api/";
  private static final Set<String> JSON_TYPES = Set.of("application/json", "application/x-amz-json-1.0");

  private record Route(HttpMethod method, String path, Handler<RoutingContext> handler) {}

  private final List<Route> routes = new ArrayList<>();

  /** Adds {@code method PREFIX+path} ({@code path} as Vert.x Web reads it: {@code queues/:account}); returns this. */
  ConsoleApi route(HttpMethod method, String path, Handler<RoutingContext> handler) {
    routes.add(new Route(method, PREFIX + path, handler));
    return this;
  }

  /** Mounts the routes on {@code router}, after the guard and before the API's 404. */
  void mount(Router router) {
    router.route(PREFIX + "*").method(HttpMethod.POST).handler(ConsoleApi::jsonBodiesOnly);
    for (Route r : routes) {
      router.route(r.path()).method(r.method()).handler(r.handler());
    }
  }

  /** POST bodies are JSON: 415 for any other type, before the body is read. */
  static void jsonBodiesOnly(RoutingContext ctx) {
    String type = ctx.request().getHeader("content-type");
    String media = type == null ? "" : type.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
    if (JSON_TYPES.contains(media)) {
      ctx.next();
    } else {
      ConsoleErrors.render(ctx.request(), 415, ConsoleErrors.UNSUPPORTED_MEDIA_TYPE,
          "The console's API takes application/json or application/x-amz-json-1.0 bodies.");
    }
  }
}
