package dev.sluice.client;

import io.smallrye.mutiny.operators.AbstractMulti;
import io.smallrye.mutiny.subscription.MultiSubscriber;
import java.util.Objects;
import java.util.concurrent.Flow;

/**
 * The Multi of {@link SluiceClient#subscribe}: cold, each subscriber its own server subscription
 * ({@link DeliverySubscription}), whose signals all come from the client's event loop.
 */
final class DeliveryMulti extends AbstractMulti<Delivery> {
  private final SluiceClient client;
  private final String queue;
  private final SubscribeOptions options;

  DeliveryMulti(SluiceClient client, String queue, SubscribeOptions options) {
    this.client = client;
    this.queue = queue;
    this.options = options;
  }

  @Override
  public void subscribe(MultiSubscriber<? super Delivery> downstream) {
    Objects.requireNonNull(downstream, "subscriber"); // Reactive Streams §1.9
    if (client.closing()) {
      refuseClosed(downstream);
      return;
    }
    DeliverySubscription s = new DeliverySubscription(client, queue, options, downstream);
    // onSubscribe on the loop too, so that no signal can overlap it.
    if (!client.onLoop(() -> {
      downstream.onSubscribe(s);
      s.start();
    })) {
      refuseClosed(downstream);
    }
  }

  private static void refuseClosed(MultiSubscriber<? super Delivery> downstream) {
    downstream.onSubscribe(new Flow.Subscription() {
      @Override
      public void request(long n) { }

      @Override
      public void cancel() { }
    });
    downstream.onFailure(new SluiceClientException("ClientClosed", 0, "The client is closed."));
  }
}
