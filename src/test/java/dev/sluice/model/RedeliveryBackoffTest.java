package dev.sluice.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The policy alone: its ceiling, its full-jitter draw, its bounds and its JSON. */
class RedeliveryBackoffTest {
  @Test
  void theCeilingDoublesFromTheBaseUpToTheMax() {
    RedeliveryBackoff p = new RedeliveryBackoff(2, 30);
    assertEquals(2_000, p.ceilingMillis(1));
    assertEquals(4_000, p.ceilingMillis(2));
    assertEquals(8_000, p.ceilingMillis(3));
    assertEquals(16_000, p.ceilingMillis(4));
    assertEquals(30_000, p.ceilingMillis(5));
    assertEquals(30_000, p.ceilingMillis(1000)); // no overflow at the largest maxReceiveCount
    assertEquals(43_200_000, new RedeliveryBackoff(43_200, 43_200).ceilingMillis(Integer.MAX_VALUE));
  }

  @Test
  void drawsSpreadOverTheWholeRangeFromZeroToTheCeiling() {
    RedeliveryBackoff p = new RedeliveryBackoff(1, 60);
    SplittableRandom random = new SplittableRandom(42);
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    int low = 0;
    int high = 0;
    for (int i = 0; i < 2000; i++) {
      long d = p.drawMillis(4, random); // ceiling 8 s
      assertTrue(d >= 0 && d <= 8_000, "draw " + d);
      min = Math.min(min, d);
      max = Math.max(max, d);
      low += d < 2_000 ? 1 : 0;
      high += d > 6_000 ? 1 : 0;
    }
    // Uniform: about a quarter below 2 s and a quarter above 6 s, never all at one end.
    assertTrue(min < 100 && max > 7_900, min + ".." + max);
    assertTrue(low > 400 && low < 600, "below 2 s: " + low);
    assertTrue(high > 400 && high < 600, "above 6 s: " + high);
  }

  @Test
  void boundsAreCheckedWithAReason() {
    assertThrows(IllegalArgumentException.class, () -> new RedeliveryBackoff(0, 10));
    assertThrows(IllegalArgumentException.class, () -> new RedeliveryBackoff(10, 9));
    assertThrows(IllegalArgumentException.class, () -> new RedeliveryBackoff(1, 43_201));
    assertEquals(null, RedeliveryBackoff.problem(1, 43_200));
    assertTrue(RedeliveryBackoff.problem(5, 4).contains("maxSeconds"));
  }

  @Test
  void jsonIsReadStrictlyAndWrittenCanonically() {
    RedeliveryBackoff p = RedeliveryBackoff.fromJson("{\"maxSeconds\": 300, \"baseSeconds\": 5}");
    assertEquals(new RedeliveryBackoff(5, 300), p);
    assertEquals("{\"baseSeconds\":5,\"maxSeconds\":300}", p.toJson());
    assertEquals(p, RedeliveryBackoff.fromJson(p.toJson()));
    for (String bad : new String[] {"", "[]", "not json", "{\"baseSeconds\":5}", "{\"baseSeconds\":1.5,\"maxSeconds\":9}",
        "{\"baseSeconds\":\"5\",\"maxSeconds\":9}", "{\"baseSeconds\":5,\"maxSeconds\":9,\"jitter\":0}",
        "{\"baseSeconds\":5,\"maxSeconds\":99999999999}"}) {
      assertThrows(IllegalArgumentException.class, () -> RedeliveryBackoff.fromJson(bad), bad);
    }
  }
}
