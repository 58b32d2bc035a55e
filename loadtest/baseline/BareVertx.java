import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;

/**
 * The ceiling Sluice is compared with: a bare Vert.x 5 HTTP server that reads each request body
 * and answers a fixed SendMessage-shaped JSON, with the same transport, on the same port sharing.
 * Run from the repository root with the server jar on the class path (single-file launch):
 *   java -cp target/sluice.jar loadtest/baseline/BareVertx.java 9325 [router]
 * then drive it with loadtest/wrk/send.lua like the real server. With "router", the same handler
 * sits behind a Vert.x Web Router (one catch-all route), as Sluice's requests do: what the router
 * itself costs.
 */
public class BareVertx {
  public static void main(String[] args) {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 9325;
    boolean routed = args.length > 1 && args[1].equals("router");
    Vertx vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
    Buffer body = Buffer.buffer("{\"MessageId\":\"6e0f7908-1bf9-4151-b47d-a58897a1ff92\","
        + "\"MD5OfMessageBody\":\"5d41402abc4b2a76b9719d911017c592\"}");
    vertx.deployVerticle(() -> new VerticleBase() {
      @Override
      public Future<?> start() {
        Handler<HttpServerRequest> answer = r -> r.body().onSuccess(b -> r.response()
            .putHeader("Content-Type", "application/x-amz-json-1.0").end(body));
        Handler<HttpServerRequest> handler = answer;
        if (routed) {
          Router router = Router.router(vertx);
          router.route().handler(ctx -> answer.handle(ctx.request()));
          handler = router;
        }
        return vertx.createHttpServer().requestHandler(handler).listen(port, "127.0.0.1");
      }
    }, new DeploymentOptions().setInstances(Runtime.getRuntime().availableProcessors()));
    System.out.println("bare Vert.x" + (routed ? " behind a Router" : "") + " on 127.0.0.1:" + port
        + ", native transport " + vertx.isNativeTransportEnabled());
  }
}
