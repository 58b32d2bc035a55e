package dev.sluice.loadtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OpenLoopScheduleTest {
  private static final long START = 1_000_000_000L;

  @Test
  void requestKIsDueAtKOverTheWorkersShareAfterItsOffset() {
    OpenLoopSchedule second = OpenLoopSchedule.of(START, 2_000, 1, 2); // 1,000/s each, offset 0.5 ms
    assertEquals(START + 500_000, second.dueAt(0));
    assertEquals(START + 500_000 + 3_000_000, second.dueAt(3));
  }

  @Test
  void aRequestStartsOnTheFirstTickAtItsDueTimeNotAnIntervalLater() {
    OpenLoopSchedule s = OpenLoopSchedule.of(START, 1_000, 0, 1);
    long end = START + 1_000_000_000L;
    assertEquals(0, s.dueBy(START - 1, end, 0));
    assertEquals(1, s.dueBy(START, end, 0), "request 0 is due at the start itself");
    assertEquals(2, s.dueBy(START + 1_000_000, end, 1), "request 1 is due exactly 1 ms in");
    assertEquals(2, s.dueBy(START + 1_999_999, end, 2));
  }

  @Test
  void theWorkersMergedScheduleIsEvenlySpaced() {
    int workers = 3;
    double rate = 3_000;
    List<Long> due = new ArrayList<>();
    for (int w = 0; w < workers; w++) {
      OpenLoopSchedule s = OpenLoopSchedule.of(START, rate, w, workers);
      for (long k = 0; k < 100; k++) {
        due.add(s.dueAt(k));
      }
    }
    due.sort(null);
    for (int i = 1; i < due.size(); i++) {
      long gap = due.get(i) - due.get(i - 1);
      assertTrue(Math.abs(gap - 333_333) <= 1, "gap " + gap + " at " + i);
    }
  }

  @Test
  void aStalledTimerStartsEveryMissedRequestLateRatherThanDroppingThem() {
    OpenLoopSchedule s = OpenLoopSchedule.of(START, 10_000, 0, 1); // one every 100 µs
    long end = START + 1_000_000_000L;
    long started = s.dueBy(START, end, 0);
    long afterStall = START + 50_000_000L; // the next tick comes 50 ms late
    long due = s.dueBy(afterStall, end, started);
    assertEquals(501, due, "every request due in the 50 ms starts on the late tick");
    assertEquals(49_900_000L, afterStall - s.dueAt(started), "the first missed request, due 100 µs in, lags by the rest of the stall");
  }

  @Test
  void nothingIsDueAtOrAfterTheEnd() {
    OpenLoopSchedule s = OpenLoopSchedule.of(START, 1_000, 0, 1);
    long end = START + 10_000_000L;
    assertEquals(10, s.dueBy(START + 60_000_000L, end, 0));
  }
}
