package dev.sluice.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Settling a delivery: eager and memoized, durations checked, lost deliveries refused locally. */
class DeliveryTest extends HarnessTest {
  private AssertSubscriber<Delivery> subscriber;
  private String address;

  @BeforeEach
  void subscribed() {
    subscriber = AssertSubscriber.create(10);
    h.client.subscribe("https://sqs.example/000000000000/orders").subscribe(subscriber);
    h.settle();
    address = h.acceptSubscribe("s1");
  }

  private Delivery delivered(JsonObject message) {
    FakeConnection c = h.connection();
    h.run(() -> c.push(address, message));
    h.settle();
    return subscriber.getLastItem();
  }

  private List<FakeConnection.Sent> sent(String to) {
    return h.onLoop(() -> h.connection().to(to));
  }

  private void answer(String to, int index) {
    h.run(() -> h.connection().to(to).get(index).reply().complete(new JsonObject()));
    h.settle();
  }

  @Test
  void readsThePushedMessage() {
    JsonObject m = ClientHarness.message("m1").put("receiveCount", 2)
        .put("attributes", new JsonObject().put("ApproximateReceiveCount", "2").put("MessageGroupId", "g1"))
        .put("messageAttributes", new JsonObject()
            .put("kind", new JsonObject().put("dataType", "String").put("stringValue", "greeting"))
            .put("raw", new JsonObject().put("dataType", "Binary").put("binaryValue",
                Base64.getEncoder().encodeToString(new byte[] {1, 2, 3}))));
    Delivery d = delivered(m);
    assertEquals("m1", d.messageId());
    assertEquals("rh-m1", d.receiptHandle());
    assertEquals("body of m1", d.body());
    assertEquals(2, d.receiveCount());
    assertEquals(Optional.of("g1"), d.messageGroupId());
    assertEquals("https://sqs.example/000000000000/orders", d.queue());
    assertEquals(Optional.of("greeting"), d.messageAttributes().get("kind").stringValue());
    assertArrayEquals(new byte[] {1, 2, 3}, d.messageAttributes().get("raw").binaryValue().orElseThrow());
    assertEquals("Binary", d.messageAttributes().get("raw").dataType());
  }

  @Test
  void ackIsSentAtOnceEvenUnsubscribedAndRemembered() {
    Delivery d = delivered(ClientHarness.message("m1"));
    Uni<Void> first = d.ack(); // not subscribed: sent all the same
    h.settle();
    assertEquals(1, sent(ProtocolAddresses.ACK).size());
    assertEquals(new JsonObject().put("subscription", "s1").put("receiptHandle", "rh-m1"),
        sent(ProtocolAddresses.ACK).get(0).body());
    assertTrue(sent(ProtocolAddresses.ACK).get(0).withReply());
    Uni<Void> second = d.ack();
    h.settle();
    assertEquals(1, sent(ProtocolAddresses.ACK).size(), "the same ack, once");
    answer(ProtocolAddresses.ACK, 0);
    assertNull(first.await().atMost(Duration.ofSeconds(5)));
    assertNull(second.await().atMost(Duration.ofSeconds(5)));
    assertNull(d.ackAsync().toCompletableFuture().join());
    assertInstanceOf(IllegalStateException.class, ClientHarness.failureOf(d.nack(Duration.ZERO)));
    assertTrue(sent(ProtocolAddresses.NACK).isEmpty());
  }

  @Test
  void aRefusedAckIsTypedAndRemembered() {
    Delivery d = delivered(ClientHarness.message("m1"));
    d.ack();
    h.settle();
    FakeConnection.Sent ack = sent(ProtocolAddresses.ACK).get(0);
    h.run(() -> FakeConnection.refuse(ack, 404,
        "ReceiptHandleIsInvalid: The receipt handle is not one this subscription holds"));
    assertInstanceOf(ReceiptHandleInvalidException.class, ClientHarness.failureOf(d.ack()));
    assertEquals(1, sent(ProtocolAddresses.ACK).size());
  }

  @Test
  void anUnknownSubscriptionMeansTheDeliveryWasLost() {
    Delivery d = delivered(ClientHarness.message("m1"));
    d.nack(Duration.ZERO);
    h.settle();
    FakeConnection.Sent nack = sent(ProtocolAddresses.NACK).get(0);
    h.run(() -> FakeConnection.refuse(nack, 404,
        "ResourceNotFoundException: The subscription has ended."));
    assertInstanceOf(DeliveryLostException.class, ClientHarness.failureOf(d.nack(Duration.ZERO)));
  }

  @Test
  void durationsAreRoundedUpToWholeSecondsAndChecked() {
    Delivery d = delivered(ClientHarness.message("m1"));
    assertInstanceOf(IllegalArgumentException.class, ClientHarness.failureOf(d.nack(Duration.ofSeconds(-1))));
    assertInstanceOf(IllegalArgumentException.class, ClientHarness.failureOf(d.nack(Duration.ofSeconds(43_201))));
    assertInstanceOf(IllegalArgumentException.class, ClientHarness.failureOf(d.extend(Duration.ofMillis(43_200_001))));
    assertInstanceOf(IllegalArgumentException.class, ClientHarness.failureOf(d.extend(null)));
    h.settle();
    assertTrue(sent(ProtocolAddresses.NACK).isEmpty() && sent(ProtocolAddresses.EXTEND).isEmpty(), "nothing sent");
    d.extend(Duration.ofMillis(1));
    d.extend(Duration.ofSeconds(43_200));
    d.nack(Duration.ofMillis(1500));
    h.settle();
    assertEquals(List.of(1, 43_200), sent(ProtocolAddresses.EXTEND).stream()
        .map(s -> s.body().getInteger("visibilityTimeout")).toList(), "extend may be repeated");
    assertEquals(2, sent(ProtocolAddresses.NACK).get(0).body().getInteger("delaySeconds"));
  }

  @Test
  void aDeliveryOfAnEarlierConnectionFailsAtOnceWithoutSending() {
    Delivery d = delivered(ClientHarness.message("m1"));
    FakeConnection first = h.connection();
    h.run(() -> first.drop(new ConnectionLostException("cut", null)));
    long end = System.currentTimeMillis() + 5000;
    while (h.connector.made.size() < 2 && System.currentTimeMillis() < end) {
      h.settle();
    }
    h.acceptSubscribe("s2");
    assertInstanceOf(DeliveryLostException.class, ClientHarness.failureOf(d.ack()));
    assertInstanceOf(DeliveryLostException.class, ClientHarness.failureOf(d.extend(Duration.ofSeconds(5))));
    assertTrue(h.onLoop(() -> first.to(ProtocolAddresses.ACK).isEmpty() && h.connection().to(ProtocolAddresses.ACK).isEmpty()
        && h.connection().to(ProtocolAddresses.EXTEND).isEmpty()));
  }

  @Test
  void aCancelledSubscriptionsDeliveriesAreLost() {
    Delivery d = delivered(ClientHarness.message("m1"));
    subscriber.cancel();
    h.settle();
    assertInstanceOf(DeliveryLostException.class, ClientHarness.failureOf(d.ack()));
    assertTrue(sent(ProtocolAddresses.ACK).isEmpty());
  }

  @Test
  void anAckWhoseConnectionIsLostFailsWithConnectionLost() {
    Delivery d = delivered(ClientHarness.message("m1"));
    Uni<Void> ack = d.ack();
    h.settle();
    FakeConnection c = h.connection();
    h.run(() -> c.drop(new ConnectionLostException("cut", null)));
    assertInstanceOf(ConnectionLostException.class, ClientHarness.failureOf(ack));
  }
}
