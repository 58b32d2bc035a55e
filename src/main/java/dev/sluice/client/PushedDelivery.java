package dev.sluice.client;

import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;

/**
 * A pushed message ({@code {"type": "message", …}}, see push.md) and its settling, which goes through
 * the subscription that received it. Settling is memoized for ack and nack; the fields are read once
 * on the event loop and never change, so any thread may use it.
 */
final class PushedDelivery implements Delivery {
  private final DeliverySubscription owner;
  /** The server subscription it came on: once that is gone, settling it is pointless. */
  private final ServerSubscription server;
  private final String queue;
  private final String messageId;
  private final String receiptHandle;
  private final String body;
  private final String md5OfBody;
  private final int receiveCount;
  private final Map<String, String> attributes;
  private final Map<String, MessageAttribute> messageAttributes;
  private final AtomicReference<Settled> settled = new AtomicReference<>();
  /** Told once the first ack or nack has its outcome (the callback adapter's demand). */
  private volatile Runnable onSettled;

  private record Settled(String how, CompletableFuture<Void> outcome) {}

  PushedDelivery(DeliverySubscription owner, ServerSubscription server, String queue, JsonObject m) {
    this.owner = owner;
    this.server = server;
    this.queue = queue;
    this.messageId = m.getString("messageId");
    this.receiptHandle = m.getString("receiptHandle");
    this.body = m.getString("body");
    this.md5OfBody = m.getString("md5OfBody");
    Map<String, String> attrs = new LinkedHashMap<>();
    JsonObject a = m.getJsonObject("attributes", new JsonObject());
    a.forEach(e -> attrs.put(e.getKey(), String.valueOf(e.getValue())));
    this.attributes = Collections.unmodifiableMap(attrs);
    this.receiveCount = m.getInteger("receiveCount", Integer.parseInt(attrs.getOrDefault("ApproximateReceiveCount", "1")));
    Map<String, MessageAttribute> mattrs = new LinkedHashMap<>();
    m.getJsonObject("messageAttributes", new JsonObject()).forEach(e -> {
      if (e.getValue() instanceof JsonObject v) {
        String type = v.getString("dataType", "String");
        mattrs.put(e.getKey(), v.getValue("binaryValue") instanceof String b
            ? MessageAttribute.ofBinary(type, Base64.getDecoder().decode(b))
            : MessageAttribute.ofString(type, v.getString("stringValue", "")));
      }
    });
    this.messageAttributes = Collections.unmodifiableMap(mattrs);
  }

  ServerSubscription server() {
    return server;
  }

  /** Runs {@code r} once the first ack or nack has its outcome, whichever it is. */
  void onSettled(Runnable r) {
    onSettled = r;
  }

  @Override
  public Uni<Void> ack() {
    return Outcomes.uni(settle("ack", ProtocolAddresses.ACK, handle()));
  }

  @Override
  public Uni<Void> nack(Duration delay) {
    return inSeconds(delay, "nack delay", seconds -> settle("nack", ProtocolAddresses.NACK,
        handle().put("delaySeconds", seconds)));
  }

  @Override
  public Uni<Void> extend(Duration visibility) {
    return inSeconds(visibility, "extension", seconds -> owner.settle(this, ProtocolAddresses.EXTEND,
        handle().put("visibilityTimeout", seconds)));
  }

  /** {@code send} with {@code d} in whole seconds, or a failed Uni (nothing sent) when {@code d} is out of range. */
  private static Uni<Void> inSeconds(Duration d, String what, IntFunction<CompletableFuture<Void>> send) {
    int seconds;
    try {
      seconds = Seconds.of(d, 0, what);
    } catch (IllegalArgumentException e) {
      return Uni.createFrom().failure(e);
    }
    return Outcomes.uni(send.apply(seconds));
  }

  @Override
  public CompletionStage<Void> ackAsync() {
    return ack().subscribeAsCompletionStage();
  }

  @Override
  public CompletionStage<Void> nackAsync(Duration delay) {
    return nack(delay).subscribeAsCompletionStage();
  }

  @Override
  public CompletionStage<Void> extendAsync(Duration visibility) {
    return extend(visibility).subscribeAsCompletionStage();
  }

  private JsonObject handle() {
    return new JsonObject().put("receiptHandle", receiptHandle); // the subscription adds its id
  }

  /** The first ack or nack is sent; the same one again gets its outcome, the other one a refusal. */
  private CompletableFuture<Void> settle(String how, String address, JsonObject request) {
    Settled mine = new Settled(how, new CompletableFuture<>());
    Settled first = settled.compareAndExchange(null, mine);
    if (first != null) {
      return first.how().equals(how) ? first.outcome()
          : CompletableFuture.failedFuture(new IllegalStateException("This delivery was settled by " + first.how() + " already"));
    }
    owner.settle(this, address, request).whenComplete((v, e) -> {
      if (e != null) {
        mine.outcome().completeExceptionally(e);
      } else {
        mine.outcome().complete(null);
      }
      Runnable r = onSettled;
      if (r != null) {
        r.run();
      }
    });
    return mine.outcome();
  }

  @Override
  public String messageId() {
    return messageId;
  }

  @Override
  public String receiptHandle() {
    return receiptHandle;
  }

  @Override
  public String body() {
    return body;
  }

  @Override
  public int receiveCount() {
    return receiveCount;
  }

  @Override
  public Map<String, String> attributes() {
    return attributes;
  }

  @Override
  public Map<String, MessageAttribute> messageAttributes() {
    return messageAttributes;
  }

  @Override
  public String md5OfBody() {
    return md5OfBody;
  }

  @Override
  public Optional<String> messageGroupId() {
    return Optional.ofNullable(attributes.get("MessageGroupId"));
  }

  @Override
  public String queue() {
    return queue;
  }

  @Override
  public String toString() {
    return "Delivery[" + messageId + " of " + queue + ", receive " + receiveCount + "]";
  }
}
