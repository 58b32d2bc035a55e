package dev.sluice.client;

import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * One message pushed to a subscription, held unacknowledged until it is settled: {@link #ack()}
 * deletes it, {@link #nack(Duration)} gives it back, and a message left unsettled past its visibility
 * timeout goes back to the queue by itself. Delivery is at least once: a message may come again
 * (with a higher {@link #receiveCount()}), so consumers should be idempotent.
 *
 * <p>The settle methods send at once, whether or not the returned {@code Uni} is subscribed to, and
 * may be called from any thread. {@code ack} and {@code nack} settle once: calling the same one again
 * returns the same outcome, and calling the other afterwards fails with IllegalStateException.
 * A delivery whose connection or subscription has ended fails them with {@link DeliveryLostException}
 * (the server has given the message back already). Their answers arrive on the client's event loop,
 * where deliveries arrive too: never block on one ({@code await()}) in a handler or in {@code onItem},
 * compose it instead.
 */
public interface Delivery {
  String messageId();

  String receiptHandle();

  String body();

  /** How many times the message has been received, this time included. */
  int receiveCount();

  /** The system attributes: SentTimestamp, ApproximateReceiveCount, MessageGroupId for FIFO, … */
  Map<String, String> attributes();

  Map<String, MessageAttribute> messageAttributes();

  String md5OfBody();

  /** The message group of a FIFO queue's message. */
  Optional<String> messageGroupId();

  /** The queue as the subscription named it (its name or URL). */
  String queue();

  /** Deletes the message; completes when the server has. */
  Uni<Void> ack();

  /**
   * Gives the message back, visible to consumers again after {@code delay} (0 for at once; up to
   * 12 h, rounded up to whole seconds).
   */
  Uni<Void> nack(Duration delay);

  /**
   * Keeps the message for {@code visibility} more from now (0 to 12 h, rounded up to whole seconds);
   * it stays unacknowledged. May be called again.
   */
  Uni<Void> extend(Duration visibility);

  /** {@link #ack()} as a CompletionStage. */
  CompletionStage<Void> ackAsync();

  /** {@link #nack(Duration)} as a CompletionStage. */
  CompletionStage<Void> nackAsync(Duration delay);

  /** {@link #extend(Duration)} as a CompletionStage. */
  CompletionStage<Void> extendAsync(Duration visibility);
}
