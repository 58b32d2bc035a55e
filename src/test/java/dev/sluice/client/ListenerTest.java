package dev.sluice.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The callback adapter: prefetch at the start, one more per settled delivery. */
class ListenerTest extends HarnessTest {
  private final List<Delivery> got = new CopyOnWriteArrayList<>();
  private final List<Throwable> errors = new CopyOnWriteArrayList<>();


  private List<Integer> credits() {
    return h.onLoop(() -> h.connection().to(ProtocolAddresses.CREDIT).stream()
        .map(s -> s.body().getInteger("credits")).toList());
  }

  private void answerLast(String address) {
    FakeConnection c = h.connection();
    h.run(() -> c.last(address).reply().complete(new JsonObject()));
    h.settle();
  }

  @Test
  void requestsThePrefetchAtTheStartAndOneMorePerSettledDelivery() {
    h.client.listen("orders", SubscribeOptions.maxUnacknowledged(3), got::add, errors::add);
    h.settle();
    String address = h.acceptSubscribe("s1");
    assertEquals(List.of(3), credits());
    h.push(address, 3);
    assertEquals(3, got.size());
    assertEquals(List.of(3), credits(), "nothing more until one is settled");
    got.get(0).ack();
    h.settle();
    assertEquals(List.of(3), credits(), "not before the ack is answered");
    answerLast(ProtocolAddresses.ACK);
    assertEquals(List.of(3, 1), credits());
    got.get(1).nack(Duration.ZERO);
    h.settle();
    FakeConnection.Sent nack = h.onLoop(() -> h.connection().last(ProtocolAddresses.NACK));
    h.run(() -> FakeConnection.refuse(nack, 404, "ResourceNotFoundException: The subscription has ended."));
    h.settle();
    assertEquals(List.of(3, 1, 1), credits(), "a lost delivery frees its place too");
    assertTrue(errors.isEmpty());
  }

  @Test
  void aHandlerThatThrowsHasItsDeliveryNackedAtOnce() {
    h.client.listen("orders", SubscribeOptions.maxUnacknowledged(1), d -> {
      throw new IllegalStateException("boom");
    }, errors::add);
    h.settle();
    String address = h.acceptSubscribe("s1");
    h.push(address, 1);
    JsonObject nack = h.onLoop(() -> h.connection().last(ProtocolAddresses.NACK).body());
    assertEquals(0, nack.getInteger("delaySeconds"));
    answerLast(ProtocolAddresses.NACK);
    assertEquals(List.of(1, 1), credits());
  }

  @Test
  void handlersRunOnTheExecutorWhenGivenOne() throws Exception {
    ExecutorService executor = Executors.newSingleThreadExecutor(r -> new Thread(r, "handlers"));
    try {
      List<String> threads = new CopyOnWriteArrayList<>();
      h.client.listen("orders", SubscribeOptions.defaults(), d -> threads.add(Thread.currentThread().getName()),
          e -> threads.add("error on " + Thread.currentThread().getName()), executor);
      h.settle();
      String address = h.acceptSubscribe("s1");
      h.push(address, 2);
      FakeConnection c = h.connection();
      h.run(() -> c.push(address, new JsonObject().put("type", "error").put("code", "QueueDoesNotExist")));
      h.settle();
      executor.shutdown();
      assertTrue(executor.awaitTermination(5, TimeUnit.SECONDS));
      assertEquals(List.of("handlers", "handlers", "error on handlers"), threads);
    } finally {
      executor.shutdownNow();
    }
  }

  @Test
  void aTerminalErrorReachesTheErrorHandler() {
    h.client.listen("orders", SubscribeOptions.defaults(), got::add, errors::add);
    h.settle();
    FakeConnection.Sent subscribe = h.onLoop(() -> h.connection().last(ProtocolAddresses.SUBSCRIBE));
    h.run(() -> FakeConnection.refuse(subscribe, 400, "QueueDoesNotExist: The specified queue does not exist."));
    h.settle();
    assertEquals(1, errors.size());
    assertInstanceOf(QueueDoesNotExistException.class, errors.get(0));
  }

  @Test
  void closingUnsubscribesAndStopsTheDemand() {
    Listener l = h.client.listen("orders", SubscribeOptions.maxUnacknowledged(2), got::add, errors::add);
    h.settle();
    String address = h.acceptSubscribe("s1");
    h.push(address, 1);
    l.close();
    h.settle();
    assertEquals(1, h.onLoop(() -> h.connection().to(ProtocolAddresses.UNSUBSCRIBE)).size());
    assertFalse(h.onLoop(() -> h.connection().registered.containsKey(address)));
    assertInstanceOf(DeliveryLostException.class, ClientHarness.failureOf(got.get(0).ack()));
    assertEquals(List.of(2), credits());
  }
}
