package dev.sluice.loadtest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class HistogramTest {
  @Test
  void mergedPercentilesMatchASortedArrayWithinTheRecordersPrecision() {
    Random random = new Random(7);
    Histogram a = new Histogram();
    Histogram b = new Histogram();
    long[] all = new long[20_000];
    for (int i = 0; i < all.length; i++) {
      all[i] = (long) Math.exp(random.nextDouble() * 14); // 1 µs … 1.2 s, log-spread
      (i % 2 == 0 ? a : b).record(all[i]);
    }
    a.merge(b);
    Arrays.sort(all);
    assertEquals(all.length, a.count());
    for (double q : new double[] {0.5, 0.9, 0.99, 0.999}) {
      long exact = all[(int) Math.ceil(q * all.length) - 1];
      assertEquals(exact, a.quantile(q), Math.max(1, exact * 0.001), "quantile " + q);
    }
    assertEquals(all[all.length - 1], a.quantile(1.0), all[all.length - 1] * 0.001);
  }
}
