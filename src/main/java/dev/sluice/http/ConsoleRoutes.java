package dev.sluice.http;

import dev.sluice.auth.ConsolePolicy;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.StaticHandler;

/**
 * The console's paths on a router (design/console.md §2.2), in both phases: the security headers
 * on every response ({@link ConsoleHeaders}), {@code GET /console} redirected to {@code /console/},
 * the API behind {@link ConsoleGuard} (while the server starts, the retryable 503 behind the same
 * guard), then the pages from the jar's {@code webroot/console} (no listing, revalidated on every
 * load), and a 404 for anything else under {@code /console/}. With console.enabled false, every
 * {@code /console} path answers 404 and nothing else is mounted.
 */
final class ConsoleRoutes {
  static final String ROOT = "/console";
  static final String WEBROOT = "webroot/console";

  private ConsoleRoutes() {}

  /** {@code api} null: the server is starting. */
  static void mount(Router router, ConsolePolicy policy, ConsoleApi api) {
    router.route(ROOT).handler(ConsoleHeaders::everyResponse);
    router.route(ROOT + "/*").handler(ConsoleHeaders::everyResponse);
    if (!policy.enabled()) {
      router.route(ROOT).handler(ctx -> disabled(ctx.request()));
      router.route(ROOT + "/*").handler(ctx -> disabled(ctx.request()));
      return;
    }
    // A route's exact path matches with a trailing slash too: /console/ itself goes on to the pages.
    router.route(ROOT).method(HttpMethod.GET).method(HttpMethod.HEAD).handler(ctx -> {
      if (ctx.normalizedPath().equals(ROOT)) {
        ctx.response().setStatusCode(301).putHeader("location", ROOT + "/").end();
      } else {
        ctx.next();
      }
    });
    router.route(ConsoleApi.PREFIX + "*").handler(ConsoleHeaders::apiResponse).handler(new ConsoleGuard(policy));
    if (api == null) {
      router.route(ConsoleApi.PREFIX + "*").handler(ctx -> ConsoleErrors.starting(ctx.request()));
    } else {
      api.mount(router);
    }
    router.route(ConsoleApi.PREFIX + "*").handler(ctx -> ConsoleErrors.render(ctx.request(), 404,
        ConsoleErrors.NOT_FOUND, "No such console API route: " + ctx.request().method() + " " + ctx.normalizedPath()));
    router.route(ROOT + "/*").method(HttpMethod.GET).method(HttpMethod.HEAD).handler(ConsoleHeaders::pageResponse)
        .handler(StaticHandler.create(WEBROOT).setCachingEnabled(false).setDirectoryListing(false)
            .setIndexPage("index.html"));
    router.route(ROOT).handler(ctx -> notFound(ctx.request()));
    router.route(ROOT + "/*").handler(ctx -> notFound(ctx.request()));
  }

  private static void notFound(HttpServerRequest req) {
    ConsoleErrors.render(req, 404, ConsoleErrors.NOT_FOUND, "Not found.");
  }

  private static void disabled(HttpServerRequest req) {
    ConsoleErrors.render(req, 404, ConsoleErrors.NOT_FOUND, "console disabled (console.enabled: false)");
  }
}
