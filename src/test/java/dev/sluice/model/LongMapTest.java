package dev.sluice.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LongMapTest {
  @Test
  void matchesAHashMapUnderRandomAndCollidingKeysWithGrowthAndShrinking() {
    Random random = new Random(11);
    LongMap<Long> map = new LongMap<>();
    Map<Long, Long> reference = new HashMap<>();
    for (int round = 0; round < 4; round++) {
      for (int i = 0; i < 50_000; i++) {
        // Multiples of a large power of two collide in the low bits before hashing.
        long key = random.nextBoolean() ? random.nextInt(2_000) : (long) random.nextInt(64) << 40;
        if (random.nextInt(3) == 0) {
          map.remove(key);
          reference.remove(key);
        } else {
          map.put(key, key * 7);
          reference.put(key, key * 7);
        }
      }
      reference.forEach((k, v) -> assertEquals(v, map.get(k)));
      assertEquals(reference.size(), map.size());
      // Drain most of it: the table shrinks and the backward shifts must keep probe runs intact.
      for (Long k : reference.keySet().stream().limit(reference.size() - 5).toList()) {
        map.remove(k);
        reference.remove(k);
      }
      reference.forEach((k, v) -> assertEquals(v, map.get(k)));
      assertNull(map.get(-1));
    }
  }
}
