package dev.sluice.it;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;

/**
 * What a Kubernetes Service does for a cluster's clients, for tests: every HTTP call, retries
 * included, goes to one of the nodes whose readiness probe answered 200 at the last look (every
 * 100 ms), in turn. An SDK client built on it sees one endpoint that stays up while nodes stop,
 * start and fail.
 */
final class ReadyNodes implements SdkHttpClient {
  private final List<Integer> ports;
  private final List<Integer> ready = new CopyOnWriteArrayList<>();
  private final AtomicInteger next = new AtomicInteger();
  private final AtomicBoolean polling = new AtomicBoolean(true);
  private final SdkHttpClient http = UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(30)).build();
  private final Thread poller;

  ReadyNodes(List<Integer> ports) {
    this.ports = List.copyOf(ports);
    HttpClient probe = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();
    poller = new Thread(() -> {
      while (polling.get()) {
        for (int port : this.ports) {
          boolean up;
          try {
            up = probe.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health/ready"))
                .timeout(Duration.ofMillis(500)).GET().build(), HttpResponse.BodyHandlers.discarding())
                .statusCode() == 200;
          } catch (Exception down) {
            up = false;
          }
          if (up && !ready.contains(port)) {
            ready.add(port);
          } else if (!up) {
            ready.remove((Integer) port);
          }
        }
        try {
          Thread.sleep(100);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "ready-nodes");
    poller.setDaemon(true);
    poller.start();
  }

  /** The ports answering ready now. */
  List<Integer> ready() {
    return List.copyOf(ready);
  }

  @Override
  public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
    List<Integer> up = List.copyOf(ready);
    int port = up.isEmpty() ? ports.get(0) : up.get(Math.floorMod(next.getAndIncrement(), up.size()));
    return http.prepareRequest(HttpExecuteRequest.builder()
        .request(request.httpRequest().toBuilder().port(port).build())
        .contentStreamProvider(request.contentStreamProvider().orElse(null))
        .metricCollector(request.metricCollector().orElse(null))
        .build());
  }

  @Override
  public String clientName() {
    return "ready-nodes";
  }

  @Override
  public void close() {
    polling.set(false);
    poller.interrupt();
    http.close();
  }
}
