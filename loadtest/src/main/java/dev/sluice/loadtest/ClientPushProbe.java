package dev.sluice.loadtest;

import dev.sluice.client.ClientOptions;
import dev.sluice.client.SluiceClient;
import dev.sluice.client.SubscribeOptions;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link PushProbe} through the Java client ({@code dev.sluice:sluice-client}), so the two compare:
 * {@code --subscribers} {@link SluiceClient}s, each with one WebSocket to the SockJS bridge and one
 * subscription of {@code maxUnacknowledged} {@code --prefetch}, subscribed with unbounded demand
 * ({@code subscribe().with}), acking every delivery as it arrives. The same producer, window and
 * report ({@link PushMeasurement}); the latency runs from the send being issued to the delivery
 * reaching the subscriber, so it includes the client's own work on the frame. The clients run on the
 * load generator's Vert.x, subscriber i on worker i's event loop, as the probe's sockets do.
 */
final class ClientPushProbe {
  private ClientPushProbe() {}

  static void run(List<Worker> workers, String queueUrl, Options o) throws Exception {
    PushMeasurement m = new PushMeasurement(o);
    URI bridge = URI.create("ws://" + o.url().getHost() + ":" + o.url().getPort() + o.string("path", "/eventbus"));
    SubscribeOptions subscription = SubscribeOptions.maxUnacknowledged(m.prefetch);
    List<SluiceClient> clients = new CopyOnWriteArrayList<>();
    AtomicLong ackFailures = new AtomicLong();
    for (int i = 0; i < m.subscribers; i++) {
      Worker w = workers.get(i % workers.size());
      Histogram h = m.subscriberHistogram();
      w.context().runOnContext(v -> {
        // Made on the worker's event loop, the client takes that loop's context as its own.
        SluiceClient client = SluiceClient.connect(ClientOptions.webSocket(bridge).vertx(w.context().owner()));
        clients.add(client);
        client.subscribe(queueUrl, subscription).subscribe().with(d -> {
          m.pushed(h, System.nanoTime(), d.body());
          d.ack().subscribe().with(done -> { }, e -> {
            if (ackFailures.incrementAndGet() <= 5) {
              System.err.println("ack failed: " + e);
            }
          });
        }, e -> System.err.println("subscription failed: " + e));
      });
    }
    m.produce(workers.get(0), queueUrl);
    m.report("push-client (send issued → delivered by the Java client)", "maxUnacknowledged");
    if (ackFailures.get() > 0) {
      System.out.printf("  acks failed: %d%n", ackFailures.get());
    }
    for (SluiceClient c : clients) {
      c.close().await().atMost(Duration.ofSeconds(10));
    }
  }
}
