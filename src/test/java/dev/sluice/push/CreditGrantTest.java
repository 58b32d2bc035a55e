package dev.sluice.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A queue subscription's credit accounting, auto and demand, with a few scenarios spelled out and
 * random runs against a model: a grant capped at prefetch that pushes decrement, a count of
 * unacknowledged messages, and at most one receive out (it may answer fewer than it asked for, or
 * fail, while credits and acks arrive).
 */
class CreditGrantTest {
  @Test
  void autoAsksForEveryFreeSlotInBatchesOfTen() {
    CreditGrant auto = CreditGrant.auto(25);
    assertEquals(10, auto.reserve(0));
    assertTrue(auto.receiving());
    auto.answered(10);
    assertFalse(auto.receiving());
    assertEquals(5, auto.reserve(20));
    auto.answered(5);
    assertEquals(0, auto.reserve(25), "every slot held");
    assertFalse(auto.receiving());
    assertThrows(IllegalStateException.class, () -> auto.add(1));
  }

  @Test
  void aDemandSubscriptionAsksForNothingUntilGranted() {
    CreditGrant demand = CreditGrant.demand(5);
    assertEquals(0, demand.reserve(0));
    assertFalse(demand.receiving());
    demand.add(3);
    assertEquals(3, demand.reserve(0));
    demand.answered(3);
    assertEquals(0, demand.grant());
    assertEquals(0, demand.reserve(0), "acks free slots but grant nothing");
  }

  @Test
  void aGrantIsClampedAtPrefetch() {
    CreditGrant demand = CreditGrant.demand(4);
    demand.add(3);
    demand.add(4);
    assertEquals(4, demand.grant());
    assertEquals(2, demand.reserve(2), "and bounded by the free slots too");
    demand.add(4);
    assertEquals(4, demand.grant(), "the reserved part counts towards the cap");
    demand.answered(2);
    assertEquals(2, demand.grant());
  }

  @Test
  void whatAReceiveDidNotPushGoesBackToTheGrant() {
    CreditGrant demand = CreditGrant.demand(20);
    demand.add(15);
    assertEquals(10, demand.reserve(0));
    demand.add(2); // while the receive is out
    demand.answered(4);
    assertEquals(13, demand.grant());
    assertEquals(10, demand.reserve(4));
    demand.answered(0); // failed
    assertEquals(13, demand.grant());
  }

  @Test
  void randomRunsKeepTheModelsGrantAndNeverExceedPrefetchOrTheGrant() {
    for (long seed = 0; seed < 200; seed++) {
      Random random = new Random(seed);
      int prefetch = 1 + random.nextInt(random.nextBoolean() ? 3 : 30);
      boolean demand = random.nextInt(4) > 0;
      CreditGrant grant = demand ? CreditGrant.demand(prefetch) : CreditGrant.auto(prefetch);
      int modelGrant = 0; // demand: granted (after the clamp) and not yet pushed
      int unacknowledged = 0;
      int outstanding = 0; // what the receive out asked for
      long granted = 0;
      long pushed = 0;
      String where = "seed " + seed + ", prefetch " + prefetch + ", demand " + demand;
      for (int step = 0; step < 500; step++) {
        int op = random.nextInt(4);
        if (op == 0 && demand) {
          int credits = 1 + random.nextInt(prefetch);
          int before = modelGrant;
          modelGrant = Math.min(prefetch, modelGrant + credits);
          granted += modelGrant - before;
          grant.add(credits);
        } else if (op == 1 && outstanding == 0) {
          int expected = Math.min(prefetch - unacknowledged, CreditGrant.MAX_BATCH);
          if (demand) {
            expected = Math.min(expected, modelGrant);
          }
          outstanding = grant.reserve(unacknowledged);
          assertEquals(Math.max(0, expected), outstanding, where + ", step " + step);
        } else if (op == 2 && outstanding > 0) {
          int got = random.nextInt(3) == 0 ? 0 : random.nextInt(outstanding + 1); // fewer, or failed
          grant.answered(got);
          unacknowledged += got;
          pushed += got;
          modelGrant -= demand ? got : 0;
          outstanding = 0;
        } else if (op == 3 && unacknowledged > 0) {
          unacknowledged--; // an ack, nack or expiry: a slot, no credit
        }
        assertEquals(outstanding > 0, grant.receiving(), where + ", step " + step);
        assertTrue(unacknowledged + outstanding <= prefetch, where + ", step " + step);
        if (demand) {
          assertEquals(modelGrant, grant.grant(), where + ", step " + step);
          assertTrue(modelGrant >= 0 && modelGrant <= prefetch, where + ", step " + step);
          assertTrue(pushed + outstanding <= granted, where + ", step " + step);
        }
      }
    }
  }
}
