package dev.sluice.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Multi's protocol over a fake connection: demand to credits, cancel, errors, reconnects. */
class DeliveryMultiTest extends HarnessTest {


  private AssertSubscriber<Delivery> subscribe(SubscribeOptions options) {
    AssertSubscriber<Delivery> s = AssertSubscriber.create(0);
    h.client.subscribe("orders", options).subscribe(s);
    h.settle();
    return s;
  }

  private List<FakeConnection.Sent> credits() {
    return h.onLoop(() -> h.connection().to(ProtocolAddresses.CREDIT));
  }

  @Test
  void subscribesInDemandModeAndGrantsNothingUntilRequested() {
    subscribe(SubscribeOptions.maxUnacknowledged(5).visibilityTimeout(Duration.ofMillis(1500)).region("eu-west-1"));
    JsonObject body = h.onLoop(() -> h.connection().last(ProtocolAddresses.SUBSCRIBE).body());
    assertEquals(new JsonObject().put("queueName", "orders").put("prefetch", 5).put("credit", "demand")
        .put("visibilityTimeout", 2).put("region", "eu-west-1"), body);
    String address = h.acceptSubscribe("s1");
    assertTrue(h.onLoop(() -> h.connection().registered.containsKey(address)));
    assertTrue(credits().isEmpty(), "no demand, no credit");
  }

  @Test
  void requestingOneSendsExactlyOneCreditOfOneWithAReplyAddress() {
    AssertSubscriber<Delivery> s = subscribe(SubscribeOptions.defaults());
    h.acceptSubscribe("s1");
    s.request(1);
    h.settle();
    List<FakeConnection.Sent> credits = credits();
    assertEquals(1, credits.size(), credits.toString());
    assertEquals(new JsonObject().put("subscription", "s1").put("credits", 1), credits.get(0).body());
    assertTrue(credits.get(0).withReply(), "the first credit after a subscribe is answered");
  }

  @Test
  void requestsBeforeTheAnswerAreGrantedOnceSubscribed() {
    AssertSubscriber<Delivery> s = subscribe(SubscribeOptions.defaults());
    s.request(2);
    h.settle();
    assertTrue(credits().isEmpty(), "nothing to credit before the subscription exists");
    h.acceptSubscribe("s1");
    assertEquals(2, credits().get(0).body().getInteger("credits"));
  }

  @Test
  void requestsInOneTurnAreCoalescedIntoOneCredit() {
    AssertSubscriber<Delivery> s = subscribe(SubscribeOptions.defaults());
    String address = h.acceptSubscribe("s1");
    h.run(() -> {
      s.request(1);
      s.request(1);
      s.request(1);
    });
    h.settle();
    assertEquals(List.of(3), credits().stream().map(c -> c.body().getInteger("credits")).toList());
    h.push(address, 3);
    assertEquals(3, s.getItems().size());
    s.assertNotTerminated();
    assertEquals(1, credits().size(), "demand used up: no top-up");
  }

  @Test
  void unboundedDemandKeepsAWindowOfPrefetchToppedUpWithoutReplies() {
    AssertSubscriber<Delivery> s = subscribe(SubscribeOptions.maxUnacknowledged(10));
    String address = h.acceptSubscribe("s1");
    s.request(Long.MAX_VALUE);
    h.settle();
    h.push(address, 4);
    assertEquals(List.of(10), credits().stream().map(c -> c.body().getInteger("credits")).toList(),
        "six still granted: no top-up of fewer than half the prefetch");
    h.push(address, 1);
    List<FakeConnection.Sent> credits = credits();
    assertEquals(List.of(10, 5), credits.stream().map(c -> c.body().getInteger("credits")).toList());
    assertFalse(credits.get(1).withReply(), "top-ups are fire-and-forget");
    assertEquals(5, s.getItems().size());
  }

  @Test
  void aPushBeyondTheGrantIsAProtocolErrorAndIsNeverEmitted() {
    AssertSubscriber<Delivery> s = subscribe(SubscribeOptions.defaults());
    String address = h.acceptSubscribe("s1");
    s.request(1);
    h.settle();
    h.push(address, 2);
    assertEquals(1, s.getItems().size(), "only what was requested is emitted");
    s.assertFailedWith(UnsupportedServerException.class);
    assertEquals(1, h.onLoop(() -> h.connection().to(ProtocolAddresses.UNSUBSCRIBE)).size(),
        "unsubscribing gives the excess back at once");
  }

  @Test
  void requestingZeroFailsTheSubscriber() {
    AssertSubscriber<Delivery> s = subscribe(SubscribeOptions.defaults());
    h.acceptSubscribe("s1");
    s.request(0);
    h.settle();
    s.assertFailedWith(IllegalArgumentException.class);
    assertEquals(1, h.onLoop(() -> h.connection().to(ProtocolAddresses.UNSUBSCRIBE)).size());
  }

  @Test
  void cancelUnsubscribesOnceAndNothingIsEmittedAfterIt() {
    AssertSubscriber<Delivery> s = subscribe(SubscribeOptions.defaults());
    String address = h.acceptSubscribe("s1");
    s.request(5);
    h.settle();
    FakeConnection c = h.connection();
    var handler = h.onLoop(() -> c.registered.get(address));
    s.cancel();
    s.cancel();
    h.settle();
    List<FakeConnection.Sent> unsubscribes = h.onLoop(() -> c.to(ProtocolAddresses.UNSUBSCRIBE));
    assertEquals(1, unsubscribes.size());
    assertEquals(new JsonObject().put("subscription", "s1"), unsubscribes.get(0).body());
    assertEquals(List.of(address), h.onLoop(() -> c.unregistered));
    h.run(() -> handler.handle(ClientHarness.message("late"))); // raced the unsubscribe
    h.settle();
    s.assertHasNotReceivedAnyItem().assertNotTerminated();
  }

  @Test
  void cancelWhileSubscribingUnsubscribesWhenTheAnswerComes() {
    AssertSubscriber<Delivery> s = subscribe(SubscribeOptions.defaults());
    s.cancel();
    h.settle();
    h.acceptSubscribe("s1");
    FakeConnection c = h.connection();
    assertEquals(1, h.onLoop(() -> c.to(ProtocolAddresses.UNSUBSCRIBE)).size());
    assertTrue(h.onLoop(() -> c.registered.isEmpty()));
  }

  @Test
  void aServerWithoutDemandCreditIsRefused() {
    AssertSubscriber<Delivery> s = subscribe(SubscribeOptions.defaults());
    FakeConnection c = h.connection();
    h.run(() -> c.last(ProtocolAddresses.SUBSCRIBE).reply().complete(new JsonObject().put("subscription", "old")
        .put("address", "sluice.push.old").put("prefetch", 10).put("visibilityTimeout", 30)));
    h.settle();
    s.assertFailedWith(UnsupportedServerException.class);
    assertEquals(new JsonObject().put("subscription", "old"), h.onLoop(() -> c.last(ProtocolAddresses.UNSUBSCRIBE).body()));
    assertTrue(h.onLoop(() -> c.registered.isEmpty()), "never registered: nothing is pushed");
  }

  @Test
  void aLostConnectionResubscribesWithTheGrantResetAndTheRemainingDemand() {
    AssertSubscriber<Delivery> s = subscribe(SubscribeOptions.defaults());
    String address = h.acceptSubscribe("s1");
    s.request(3);
    h.settle();
    h.push(address, 1);
    FakeConnection first = h.connection();
    h.run(() -> first.drop(new ConnectionLostException("cut", null)));
    awaitConnections(2);
    FakeConnection second = h.connection();
    assertEquals("demand", h.onLoop(() -> second.last(ProtocolAddresses.SUBSCRIBE).body().getString("credit")));
    h.acceptSubscribe("s2");
    List<FakeConnection.Sent> credits = h.onLoop(() -> second.to(ProtocolAddresses.CREDIT));
    assertEquals(1, credits.size());
    assertEquals(new JsonObject().put("subscription", "s2").put("credits", 2), credits.get(0).body());
    assertTrue(credits.get(0).withReply());
    s.assertNotTerminated();
    // The delivery of the first connection cannot be settled: nothing is sent for it.
    assertInstanceOf(DeliveryLostException.class, ClientHarness.failureOf(s.getItems().get(0).ack()));
    assertTrue(h.onLoop(() -> first.to(ProtocolAddresses.ACK).isEmpty() && second.to(ProtocolAddresses.ACK).isEmpty()));
  }

  @Test
  void aDeletedQueueEndsTheSubscriptionWithATerminalError() {
    AssertSubscriber<Delivery> s = subscribe(SubscribeOptions.defaults());
    String address = h.acceptSubscribe("s1");
    FakeConnection c = h.connection();
    h.run(() -> c.push(address, new JsonObject().put("type", "error").put("subscription", "s1")
        .put("code", "QueueDoesNotExist").put("message", "The specified queue does not exist.")));
    h.settle();
    s.assertFailedWith(QueueDoesNotExistException.class, "does not exist");
    assertEquals(List.of(address), h.onLoop(() -> c.unregistered));
  }

  @Test
  void aServerThatStopsServingIsSubscribedToAgain() {
    AssertSubscriber<Delivery> s = subscribe(SubscribeOptions.defaults());
    String address = h.acceptSubscribe("s1");
    s.request(1);
    h.settle();
    FakeConnection c = h.connection();
    h.run(() -> c.push(address, new JsonObject().put("type", "error").put("code", "ServiceUnavailable")
        .put("message", "This server is not serving; subscribe again later.")));
    awaitSent(c, ProtocolAddresses.SUBSCRIBE, 2);
    h.acceptSubscribe("s2");
    assertEquals(List.of(true, true), h.onLoop(() -> c.to(ProtocolAddresses.CREDIT).stream()
        .map(FakeConnection.Sent::withReply).toList()));
    s.assertNotTerminated();
  }

  @Test
  void anUnknownQueueFailsAtSubscribe() {
    AssertSubscriber<Delivery> s = subscribe(SubscribeOptions.defaults());
    h.run(() -> FakeConnection.refuse(h.connection().last(ProtocolAddresses.SUBSCRIBE), 400,
        "QueueDoesNotExist: The specified queue does not exist."));
    h.settle();
    s.assertFailedWith(QueueDoesNotExistException.class);
  }

  @Test
  void theHundredAndFirstSubscriptionIsRefusedLocally() {
    for (int i = 0; i < SluiceClient.MAX_SUBSCRIPTIONS; i++) {
      h.client.subscribe("q" + i).subscribe(AssertSubscriber.create(0));
    }
    AssertSubscriber<Delivery> extra = subscribe(SubscribeOptions.defaults());
    extra.assertFailedWith(OverLimitException.class);
    assertEquals(SluiceClient.MAX_SUBSCRIPTIONS, h.onLoop(() -> h.connection().to(ProtocolAddresses.SUBSCRIBE)).size());
  }

  @Test
  void closingTheClientCompletesOpenSubscriptionsAndRefusesNewOnes() {
    AssertSubscriber<Delivery> s = subscribe(SubscribeOptions.defaults());
    String address = h.acceptSubscribe("s1");
    s.request(1);
    h.settle();
    h.push(address, 1);
    h.client.close().await().atMost(Duration.ofSeconds(5));
    s.assertCompleted();
    assertTrue(h.onLoop(() -> h.connection().closed));
    assertInstanceOf(DeliveryLostException.class, ClientHarness.failureOf(s.getItems().get(0).ack()));
    AssertSubscriber<Delivery> late = AssertSubscriber.create(1);
    h.client.subscribe("orders").subscribe(late);
    late.assertFailedWith(SluiceClientException.class, "closed");
  }

  @Test
  void givingUpOnConnectingFailsTheSubscriptions() {
    try (ClientHarness refused = new ClientHarness(vertx,
        Backoff.exponential(Duration.ofMillis(1), Duration.ofMillis(2)).maxAttempts(3), new java.net.ConnectException("refused"))) {
      AssertSubscriber<Delivery> s = AssertSubscriber.create(1);
      refused.client.subscribe("orders").subscribe(s);
      s.awaitFailure(Duration.ofSeconds(5));
      assertInstanceOf(java.net.ConnectException.class, s.getFailure());
    }
  }

  @Test
  void refusedCredentialsFailEverySubscriptionAtOnce() {
    try (ClientHarness refused = new ClientHarness(vertx, Backoff.defaults(), new UnauthorizedException(401, "no"))) {
      AssertSubscriber<Delivery> s = AssertSubscriber.create(1);
      refused.client.subscribe("orders").subscribe(s);
      refused.settle();
      s.assertFailedWith(UnauthorizedException.class);
    }
  }

  private void awaitConnections(int n) {
    long end = System.currentTimeMillis() + 5000;
    while (h.connector.made.size() < n) {
      if (System.currentTimeMillis() > end) {
        throw new AssertionError("no reconnect");
      }
      h.settle();
    }
    h.settle();
  }

  private void awaitSent(FakeConnection c, String address, int n) {
    long end = System.currentTimeMillis() + 5000;
    while (h.onLoop(() -> c.to(address).size()) < n) {
      if (System.currentTimeMillis() > end) {
        throw new AssertionError("not sent: " + address);
      }
      h.settle();
    }
  }
}
