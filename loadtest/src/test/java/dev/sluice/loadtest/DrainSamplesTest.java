package dev.sluice.loadtest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DrainSamplesTest {
  @Test
  void eachLineGivesTheRatesOfTheIntervalItCloses() {
    DrainSamples d = new DrainSamples();
    assertEquals("0.0,1000,0,0,0,100000", d.add(new DrainSamples.Sample(0, 1_000, 0, 100_000)));
    assertEquals("0.5,800,400,150,300,120000", d.add(new DrainSamples.Sample(0.5, 800, 150, 120_000)));
  }

  @Test
  void theMedianLeavesOutTheWakeUpIntervalAndTheLastPartialOne() {
    DrainSamples d = new DrainSamples();
    d.add(new DrainSamples.Sample(0, 10_000, 0, 1));
    d.add(new DrainSamples.Sample(1, 9_900, 100, 1)); // the relay waking: 100/s, left out
    d.add(new DrainSamples.Sample(2, 7_900, 2_100, 1)); // 2,000/s
    d.add(new DrainSamples.Sample(3, 4_900, 5_100, 1)); // 3,000/s
    d.add(new DrainSamples.Sample(4, 2_400, 7_600, 1)); // 2,500/s
    d.add(new DrainSamples.Sample(5, 0, 10_000, 1)); // the end, within the second: left out
    assertEquals(2_500, d.medianRowsPerSecond(), 1e-9);
  }

  @Test
  void theRssRangeIgnoresSecondsItCouldNotBeRead() {
    DrainSamples d = new DrainSamples();
    d.add(new DrainSamples.Sample(0, 1, 0, -1));
    assertArrayEquals(new long[] {-1, -1}, d.rssRangeKb());
    d.add(new DrainSamples.Sample(1, 1, 0, 300_000));
    d.add(new DrainSamples.Sample(2, 0, 1, 280_000));
    assertArrayEquals(new long[] {280_000, 300_000}, d.rssRangeKb());
  }
}
