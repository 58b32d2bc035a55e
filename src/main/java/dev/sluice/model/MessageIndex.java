package dev.sluice.model;

import java.util.function.Consumer;

/**
 * A queue's messages by key, in pages of 64 consecutive keys. Keys are handed out in send order, so
 * a new message lands in the newest page instead of a random slot of one huge array: the garbage
 * collector then finds few old-to-young references to scan, which kept young pauses long with a
 * plain hash table of a million messages (measured; see loadtest/RESULTS.md). A page is dropped as
 * soon as its last message goes. Owned by the shard event loop of its queue; not thread-safe.
 */
final class MessageIndex {
  private static final int PAGE_BITS = 6;
  private static final int PAGE_MASK = (1 << PAGE_BITS) - 1;

  private static final class Page {
    final Message[] slots = new Message[1 << PAGE_BITS];
    int live;
  }

  private final LongMap<Page> pages = new LongMap<>();
  private int size;

  int size() {
    return size;
  }

  Message get(long key) {
    Page p = pages.get(key >>> PAGE_BITS);
    return p == null ? null : p.slots[(int) key & PAGE_MASK];
  }

  void put(long key, Message value) {
    Page p = pages.get(key >>> PAGE_BITS);
    if (p == null) {
      p = new Page();
      pages.put(key >>> PAGE_BITS, p);
    }
    int i = (int) key & PAGE_MASK;
    if (p.slots[i] == null) {
      p.live++;
      size++;
    }
    p.slots[i] = value;
  }

  void remove(long key) {
    Page p = pages.get(key >>> PAGE_BITS);
    int i = (int) key & PAGE_MASK;
    if (p == null || p.slots[i] == null) {
      return;
    }
    p.slots[i] = null;
    size--;
    if (--p.live == 0) {
      pages.remove(key >>> PAGE_BITS);
    }
  }

  void forEach(Consumer<Message> action) {
    pages.forEachValue(p -> {
      for (Message m : p.slots) {
        if (m != null) {
          action.accept(m);
        }
      }
    });
  }

  void clear() {
    pages.clear();
    size = 0;
  }
}
