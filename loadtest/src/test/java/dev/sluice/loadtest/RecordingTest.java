package dev.sluice.loadtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecordingTest {
  private static final long FROM = 5_000_000_000L;

  @Test
  void anOpenLoopCountsFromTheDueTimeAndSeparatesServiceTimeFromGeneratorLag() {
    Recording r = new Recording(true, FROM);
    r.succeeded(FROM, FROM + 3_000_000, FROM + 5_000_000, 10); // sent 3 ms late, answered 2 ms later
    assertEquals(5_000, r.latency.quantile(1.0), 5);
    assertEquals(2_000, r.service.quantile(1.0), 2);
    assertEquals(3_000, r.lag.quantile(1.0), 3);
    assertEquals(10, r.messages);
  }

  @Test
  void writesDistributionsPerSecondRowsAndAnIntervalLogThatReadsBack(@TempDir Path dir) throws Exception {
    Recording a = new Recording(true, FROM);
    Recording b = new Recording(true, FROM);
    for (int i = 0; i < 100; i++) {
      a.succeeded(FROM + i * 10_000_000L, FROM + i * 10_000_000L, FROM + i * 10_000_000L + 1_000_000, 1);
    }
    b.succeeded(FROM + 1_500_000_000L, FROM + 1_500_000_000L, FROM + 1_540_000_000L, 1); // 40 ms, second 1
    a.merge(b);
    a.write(dir, 1_700_000_000_000L);
    List<String> csv = Files.readAllLines(dir.resolve("per-second.csv"));
    assertEquals("second,count,p50_ms,p99_ms,max_ms", csv.get(0));
    assertEquals(3, csv.size());
    assertTrue(csv.get(1).startsWith("0,100,1.000,1.000,1.000"), csv.get(1));
    assertTrue(csv.get(2).matches("1,1,40\\.0\\d\\d,40\\.0\\d\\d,40\\.0\\d\\d"), csv.get(2));
    assertTrue(Files.readString(dir.resolve("latency.hgrm")).contains("#[Max     =       40."));
    assertTrue(Files.exists(dir.resolve("lag.hgrm")) && Files.exists(dir.resolve("service.hgrm")));
    HistogramLogReader log = new HistogramLogReader(dir.resolve("latency.hlog").toFile());
    assertEquals(100, ((org.HdrHistogram.Histogram) log.nextIntervalHistogram()).getTotalCount());
    org.HdrHistogram.EncodableHistogram second = log.nextIntervalHistogram();
    assertEquals(1_700_000_001_000L, second.getStartTimeStamp());
    assertEquals(40_000, ((org.HdrHistogram.Histogram) second).getMaxValue(), 40);
  }
}
