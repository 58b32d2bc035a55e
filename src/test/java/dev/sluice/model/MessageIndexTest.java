package dev.sluice.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MessageIndexTest {
  static Message message(long key) {
    return new Message(key, 1, 2, 3, 4, 0, null, 0, 0);
  }

  @Test
  void behavesLikeAMapUnderRandomPutsAndRemoves() {
    Random random = new Random(7);
    MessageIndex index = new MessageIndex();
    Map<Long, Message> reference = new HashMap<>();
    for (int i = 0; i < 200_000; i++) {
      long key = random.nextInt(5_000);
      if (random.nextInt(3) == 0) {
        index.remove(key);
        reference.remove(key);
      } else {
        Message m = message(key);
        index.put(key, m);
        reference.put(key, m);
      }
      if (i % 997 == 0) {
        long probe = random.nextInt(5_000);
        assertSame(reference.get(probe), index.get(probe));
      }
    }
    assertEquals(reference.size(), index.size());
    reference.forEach((k, v) -> assertSame(v, index.get(k)));
    int[] seen = {0};
    index.forEach(m -> seen[0]++);
    assertEquals(reference.size(), seen[0]);
  }

  @Test
  void shrinksAfterRemovalsAndStillFindsEverything() {
    MessageIndex index = new MessageIndex();
    for (long k = 0; k < 10_000; k++) {
      index.put(k, message(k));
    }
    for (long k = 0; k < 9_990; k++) {
      index.remove(k);
    }
    assertNull(index.get(5));
    for (long k = 9_990; k < 10_000; k++) {
      assertEquals(k, index.get(k).key);
    }
  }
}
