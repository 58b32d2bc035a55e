package dev.sluice.model;

import java.util.List;

/**
 * Owned by the {@link Visibility} of its standard queue, on the shard event loop that owns the queue.
 *
 * <p>A standard queue's visible messages (at-least-once, best-effort order): one list in send
 * order. A message whose visibility runs out goes back to the front, as it is older than the rest;
 * delayed and in-flight messages are not in the list at all.
 */
final class SendOrder implements DeliveryOrder {
  private final MessageList ready = new MessageList(MessageList.Links.READY);

  @Override
  public void addReady(Message m, boolean returning) {
    if (returning) {
      ready.addFirst(m);
    } else {
      ready.addLast(m);
    }
  }

  @Override
  public void holdPlace(Message m) {}

  @Override
  public void placeAtFront(Message m) {}

  @Override
  public void returnReceived(List<Message> received) {
    for (int i = received.size() - 1; i >= 0; i--) {
      ready.addFirst(received.get(i));
    }
  }

  @Override
  public void forget(Message m) {
    if (m.state() == MessageState.READY) {
      ready.remove(m);
    }
  }

  @Override
  public int readyCount() {
    return ready.size();
  }

  @Override
  public void takeReceivable(int max, List<Message> out) {
    for (int i = 0; i < max && !ready.isEmpty(); i++) {
      out.add(ready.pollFirst());
    }
  }

  @Override
  public boolean hasReceivable() {
    return !ready.isEmpty();
  }

  @Override
  public void clear() {
    ready.clear();
  }

  @Override
  public Message returnsWith(Message m) {
    return null;
  }
}
