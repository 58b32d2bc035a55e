package dev.sluice.loadtest;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.util.concurrent.TimeUnit;

/**
 * Sluice's admin API for triggers (Lambda's event source mapping paths) with the management token,
 * over a client of its own so that its calls never queue behind the load's. Blocking: called from
 * the benchmark's thread between phases, and a few times a second to sample a trigger's pollers.
 */
final class MappingCalls implements AutoCloseable {
  private static final String PATH = "/2015-03-31/event-source-mappings/";
  /** Where every call is made, for the reason {@link SqsCalls} gives. */
  private final Context context;
  private final HttpClient client;
  private final URI url;
  private final String token;

  MappingCalls(Vertx vertx, URI url, String token) {
    this.context = vertx.getOrCreateContext(); // called from the benchmark's thread: a context of its own
    this.client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true));
    this.url = url;
    this.token = token;
  }

  /** CreateEventSourceMapping; the new trigger's UUID. */
  String create(JsonObject request) throws Exception {
    return call(HttpMethod.POST, PATH, request, 202).getString("UUID");
  }

  /** UpdateEventSourceMapping to {@code "Enabled": true}. */
  void enable(String uuid) throws Exception {
    call(HttpMethod.PUT, PATH + uuid, new JsonObject().put("Enabled", true), 202);
  }

  JsonObject get(String uuid) throws Exception {
    return call(HttpMethod.GET, PATH + uuid, null, 200);
  }

  void delete(String uuid) throws Exception {
    call(HttpMethod.DELETE, PATH + uuid, null, 202);
  }

  private JsonObject call(HttpMethod method, String path, JsonObject body, int expected) throws Exception {
    RequestOptions options = new RequestOptions().setMethod(method).setHost(url.getHost()).setPort(url.getPort())
        .setURI(path).putHeader("Authorization", "Bearer " + token);
    if (body != null) {
      options.putHeader("Content-Type", "application/json");
    }
    Promise<JsonObject> answered = Promise.promise();
    context.runOnContext(v -> client.request(options)
        .compose(req -> body == null ? req.send() : req.send(body.toBuffer()))
        .compose(resp -> resp.body().compose(b -> resp.statusCode() == expected
            ? Future.succeededFuture(b.length() == 0 ? new JsonObject() : b.toJsonObject())
            : Future.failedFuture(new IllegalStateException(method + " " + path + " answered "
                + resp.statusCode() + ": " + b))))
        .onComplete(answered));
    return answered.future().await(10, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws Exception {
    client.close().await(10, TimeUnit.SECONDS);
  }
}
