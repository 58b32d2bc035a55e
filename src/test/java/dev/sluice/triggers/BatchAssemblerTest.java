package dev.sluice.triggers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.triggers.BatchAssembler.Record;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BatchAssemblerTest {
  static final long VISIBLE = 1_000_000;

  static List<Record> records(int from, int count, int bytes) {
    List<Record> out = new ArrayList<>();
    for (int i = from; i < from + count; i++) {
      out.add(new Record("m" + i, "{}", bytes, VISIBLE));
    }
    return out;
  }

  static List<String> ids(List<Record> records) {
    return records.stream().map(Record::messageId).toList();
  }

  @Test
  void withoutAWindowTheBatchIsOneReceive() {
    BatchAssembler a = new BatchAssembler(10, 0, 30_000);
    assertEquals(10, a.wanted());
    a.add(records(0, 3, 100), 0);
    assertTrue(a.ready(0));
    assertEquals(List.of("m0", "m1", "m2"), ids(a.take(0)));
    assertFalse(a.ready(0));
  }

  @Test
  void aWindowFillsUntilTheBatchSizeOrItsEnd() {
    BatchAssembler a = new BatchAssembler(25, 2, 30_000);
    a.add(records(0, 10, 100), 1_000);
    assertFalse(a.ready(1_500));
    assertEquals(10, a.wanted());
    assertEquals(1_500, a.waitMillis(1_500), "the window counts from the first record");
    a.add(records(10, 10, 100), 1_600);
    assertEquals(5, a.wanted());
    assertFalse(a.ready(2_000));
    assertTrue(a.ready(3_000), "the window ended");
    assertEquals(20, a.take(3_000).size());
    a.add(records(20, 10, 100), 4_000);
    a.add(records(30, 10, 100), 4_100);
    a.add(records(40, 10, 100), 4_200);
    assertTrue(a.ready(4_200), "25 records: full before the window");
    assertEquals(ids(records(20, 25, 100)), ids(a.take(4_200)));
    assertEquals(ids(records(45, 5, 100)), ids(a.held()), "the rest starts the next batch");
  }

  @Test
  void anEventNeverPassesSixMegabytesAndABigRecordGoesAlone() {
    BatchAssembler a = new BatchAssembler(100, 10, 30_000);
    a.add(records(0, 3, 2_500_000), 0);
    assertTrue(a.ready(0), "the third would pass 6 MB");
    assertEquals(List.of("m0", "m1"), ids(a.take(0)));
    assertEquals(List.of("m2"), ids(a.held()));
    BatchAssembler alone = new BatchAssembler(100, 10, 30_000);
    alone.add(records(0, 2, 7_000_000), 0);
    assertEquals(List.of("m0"), ids(alone.take(0)));
    assertEquals(List.of("m1"), ids(alone.take(0)));
  }

  @Test
  void aBatchLeavesBeforeItsFirstHandleWouldExpireDuringTheInvoke() {
    BatchAssembler a = new BatchAssembler(100, 300, 30_000);
    a.add(List.of(new Record("m0", "{}", 10, 70_000)), 0);
    assertFalse(a.ready(38_000));
    assertEquals(1_000, a.waitMillis(38_000), "the guard ends the wait before the window does");
    assertTrue(a.ready(39_500), "less than the timeout and a second left");
  }

  @Test
  void aVisibilityNoLongerThanTheTimeoutStillLetsTheWindowGatherForHalfOfIt() {
    BatchAssembler shortWindow = new BatchAssembler(100, 2, 30_000);
    shortWindow.add(List.of(new Record("m0", "{}", 10, 30_000)), 0);
    assertFalse(shortWindow.ready(0), "the window is honoured");
    assertTrue(shortWindow.ready(2_000));
    BatchAssembler longWindow = new BatchAssembler(100, 20, 30_000);
    longWindow.add(List.of(new Record("m0", "{}", 10, 30_000)), 0);
    assertEquals(15_000, longWindow.waitMillis(0), "half the visibility, not the whole window");
    assertTrue(longWindow.ready(15_000));
  }
}
