package dev.sluice.client;

import io.smallrye.mutiny.subscription.MultiSubscriber;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;

/**
 * The callback adapter (design §2.9): requests the prefetch at the start and one more each time a
 * delivery's ack or nack has its outcome (whatever it is, DeliveryLostException included), calls the
 * handlers on the client's event loop or on an executor. Signals arrive on the event loop; close may
 * come from any thread.
 */
final class CallbackListener implements MultiSubscriber<Delivery>, Listener {
  private static final System.Logger LOG = System.getLogger("dev.sluice.client");

  private final int prefetch;
  private final DeliveryHandler handler;
  private final ErrorHandler onError;
  private final Executor executor;
  private volatile Flow.Subscription subscription;
  private volatile boolean closed;

  CallbackListener(int prefetch, DeliveryHandler handler, ErrorHandler onError, Executor executor) {
    this.prefetch = prefetch;
    this.handler = handler;
    this.onError = onError;
    this.executor = executor;
  }

  @Override
  public void onSubscribe(Flow.Subscription s) {
    subscription = s;
    if (closed) {
      s.cancel();
    } else {
      s.request(prefetch);
    }
  }

  @Override
  public void onItem(Delivery d) {
    if (d instanceof PushedDelivery pushed) {
      pushed.onSettled(() -> {
        if (!closed) {
          subscription.request(1);
        }
      });
    }
    run(() -> {
      try {
        handler.handle(d);
      } catch (Exception e) {
        LOG.log(System.Logger.Level.WARNING, "A delivery handler failed; its message is given back", e);
        d.nack(Duration.ZERO); // also frees its place in the demand (a no-op if it was settled already)
      }
    });
  }

  @Override
  public void onFailure(Throwable failure) {
    run(() -> onError.handle(failure));
  }

  @Override
  public void onCompletion() {
    // The client closed.
  }

  @Override
  public void close() {
    closed = true;
    Flow.Subscription s = subscription;
    if (s != null) {
      s.cancel();
    }
  }

  private void run(Runnable r) {
    if (executor == null) {
      r.run();
    } else {
      executor.execute(r);
    }
  }
}
