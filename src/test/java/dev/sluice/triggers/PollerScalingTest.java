package dev.sluice.triggers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.triggers.InvokeOutcome.ErrorKind;
import dev.sluice.triggers.PollerScaling.Tick;
import org.junit.jupiter.api.Test;

class PollerScalingTest {
  static final Tick FULL = new Tick(10, 10, 0, 10, null);

  @Test
  void startsAtFiveAndGrowsByFiveATickWhileReceivesComeBackFullUpToItsMaximum() {
    PollerScaling s = new PollerScaling(23, false);
    assertEquals(5, s.target());
    s.tick(FULL);
    assertEquals(10, s.target());
    s.tick(new Tick(10, 9, 1, 10, null));
    assertEquals(10, s.target(), "a receive that was not full: no growth");
    for (int i = 0; i < 10; i++) {
      s.tick(FULL);
    }
    assertEquals(23, s.target());
    assertEquals(2, new PollerScaling(2, false).target(), "a lower maximum starts lower");
  }

  @Test
  void idlePollersEndDownToTwo() {
    PollerScaling s = new PollerScaling(100, false);
    assertTrue(s.idleMayEnd(5));
    assertTrue(s.idleMayEnd(3));
    assertFalse(s.idleMayEnd(2));
    assertEquals(2, s.target());
    assertFalse(new PollerScaling(1, false).idleMayEnd(1));
  }

  @Test
  void anOverloadedTargetHalvesThePollersAndDelaysEveryInvokeUntilASuccess() {
    PollerScaling s = new PollerScaling(100, false);
    s.tick(FULL);
    s.tick(FULL);
    assertEquals(15, s.target());
    long[] waits = new long[8];
    for (int i = 0; i < waits.length; i++) {
      s.tick(new Tick(3, 0, 0, 0, ErrorKind.HTTP_5XX));
      waits[i] = s.backoffMillis();
    }
    assertEquals(1, s.target());
    assertEquals(1_000, waits[0]);
    assertEquals(2_000, waits[1]);
    assertEquals(60_000, waits[7], "capped at a minute");
    s.tick(new Tick(1, 0, 0, 1, null));
    assertEquals(0, s.backoffMillis(), "a success ends the backoff");
  }

  @Test
  void functionErrorsShrinkGentlyUnlessItemFailuresAreReported() {
    PollerScaling plain = new PollerScaling(100, false);
    plain.tick(FULL);
    plain.tick(new Tick(5, 5, 0, 0, ErrorKind.FUNCTION_ERROR));
    assertEquals(8, plain.target(), "10 less a quarter");
    assertEquals(0, plain.backoffMillis());
    PollerScaling reported = new PollerScaling(100, true);
    reported.tick(FULL);
    reported.tick(new Tick(5, 5, 0, 0, ErrorKind.FUNCTION_ERROR));
    assertEquals(15, reported.target(), "function errors do not scale polling down");
  }
}
