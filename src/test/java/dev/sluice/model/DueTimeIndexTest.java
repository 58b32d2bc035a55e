package dev.sluice.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DueTimeIndexTest {
  static final class Item extends Timed {
    final String name;
    final List<String> fired;

    Item(String name, List<String> fired) {
      this.name = name;
      this.fired = fired;
    }

    @Override
    public void onDue(long nowMillis) {
      fired.add(name);
    }
  }

  @Test
  void firesInDueOrderAndTiesInSchedulingOrder() {
    List<String> fired = new ArrayList<>();
    DueTimeIndex index = new DueTimeIndex();
    index.schedule(new Item("c", fired), 30);
    index.schedule(new Item("a1", fired), 10);
    index.schedule(new Item("b", fired), 20);
    index.schedule(new Item("a2", fired), 10);
    assertEquals(10, index.nextDueAtMillis());
    assertEquals(3, index.fireDue(20, 10));
    assertEquals(List.of("a1", "a2", "b"), fired);
    assertEquals(30, index.nextDueAtMillis());
  }

  @Test
  void firingStopsAtTheBatchLimitAndTheRestStaysDue() {
    List<String> fired = new ArrayList<>();
    DueTimeIndex index = new DueTimeIndex();
    for (int i = 0; i < 5; i++) {
      index.schedule(new Item("i" + i, fired), 10);
    }
    assertEquals(3, index.fireDue(10, 3));
    assertEquals(2, index.size());
    assertEquals(2, index.fireDue(10, 3));
    assertEquals(List.of("i0", "i1", "i2", "i3", "i4"), fired);
  }

  @Test
  void nothingFiresBeforeItsTime() {
    DueTimeIndex index = new DueTimeIndex();
    index.schedule(new Item("x", new ArrayList<>()), 100);
    assertNull(index.pollDue(99));
    assertEquals(1, index.size());
  }

  @Test
  void cancelAndRescheduleLeaveNoStaleEntries() {
    List<String> fired = new ArrayList<>();
    DueTimeIndex index = new DueTimeIndex();
    Item a = new Item("a", fired);
    Item b = new Item("b", fired);
    index.schedule(a, 10);
    index.schedule(b, 20);
    index.schedule(a, 30); // moved, not duplicated
    assertEquals(2, index.size());
    index.cancel(b);
    assertFalse(b.isScheduled());
    index.cancel(b); // cancelling twice is harmless
    assertEquals(1, index.size());
    assertSame(a, index.pollDue(30));
    assertEquals(Long.MAX_VALUE, index.nextDueAtMillis());
  }

  @Test
  void heapStaysOrderedUnderRandomOperations() {
    Random random = new Random(42);
    DueTimeIndex index = new DueTimeIndex();
    List<Item> live = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      int op = random.nextInt(3);
      if (op == 0 || live.isEmpty()) {
        Item item = new Item("i" + i, new ArrayList<>());
        index.schedule(item, random.nextInt(1_000_000));
        live.add(item);
      } else if (op == 1) {
        Item item = live.remove(random.nextInt(live.size()));
        index.cancel(item);
      } else {
        index.schedule(live.get(random.nextInt(live.size())), random.nextInt(1_000_000));
      }
    }
    assertEquals(live.size(), index.size());
    long last = Long.MIN_VALUE;
    Timed t;
    while ((t = index.pollDue(Long.MAX_VALUE)) != null) {
      assertTrue(t.dueAtMillis() >= last);
      last = t.dueAtMillis();
    }
  }
}
