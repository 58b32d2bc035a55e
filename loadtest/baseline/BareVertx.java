import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;

/**
 * The ceiling Sluice is compared with: a bare Vert.x 5 HTTP server that reads each request body
 * and answers a fixed SendMessage-shaped JSON, with the same transport, on the same port sharing.
 * Run from the repository root with the server jar on the class path (single-file launch):
 *   java -cp target/sluice.jar loadtest/baseline/BareVertx.java 9325
 * then drive it with loadtest/wrk/send.lua like the real server.
 */
public class BareVertx {
  public static void main(String[] args) {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 9325;
    Vertx vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
    Buffer body = Buffer.buffer("{\"MessageId\":\"6e0f7908-1bf9-4151-b47d-a58897a1ff92\","
        + "\"MD5OfMessageBody\":\"5d41402abc4b2a76b9719d911017c592\"}");
    vertx.deployVerticle(() -> new VerticleBase() {
      @Override
      public Future<?> start() {
        return vertx.createHttpServer()
            .requestHandler(r -> r.body().onSuccess(b -> r.response()
                .putHeader("Content-Type", "application/x-amz-json-1.0").end(body)))
            .listen(port, "127.0.0.1");
      }
    }, new DeploymentOptions().setInstances(Runtime.getRuntime().availableProcessors()));
    System.out.println("bare Vert.x on 127.0.0.1:" + port + ", native transport " + vertx.isNativeTransportEnabled());
  }
}
