package dev.sluice.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class ShardLeaseTest {
  static final long L = 3_000;
  static final long M = 300;

  @Test
  void aClaimedShardServesOnceLoadedAndUntilTheLeaseLessTheMarginFromTheClaimsSendTime() {
    ShardLease lease = new ShardLease(L, M);
    assertEquals("this node does not hold the shard", lease.closedBecause(0));
    lease.claimed(7, 1_000);
    assertEquals(7, lease.epoch());
    assertFalse(lease.serving(1_100), "loading");
    assertEquals("the shard is being loaded", lease.closedBecause(1_100));
    lease.loaded();
    assertTrue(lease.serving(1_100));
    assertTrue(lease.serving(3_699));
    assertFalse(lease.serving(3_700), "sent at 1,000 + 3,000 - 300");
    assertTrue(lease.closedBecause(3_800).startsWith("the shard's lease was not renewed in time (100 ms late"));
  }

  @Test
  void aRenewalRunsFromItsSendTimeSoALateAnswerRenewsLessAndAnOldAnswerNothing() {
    ShardLease lease = serving(0);
    lease.renewed(750, true); // answered at, say, 2,500: the lease runs from 750 all the same
    assertEquals(750 + L - M, lease.validUntilMillis());
    lease.renewed(500, true); // an older renewal answered after a newer one
    assertEquals(750 + L - M, lease.validUntilMillis(), "never shortened");
  }

  /**
   * SIGSTOP past the lease: on waking the node finds it expired and serves nothing, whatever it
   * believed before, until a renewal sent after it woke is confirmed.
   */
  @Test
  void aPausedNodeServesNothingOnWakingUntilARenewalSentAfterItIsConfirmed() {
    ShardLease lease = serving(0);
    long woke = 10_000;
    assertFalse(lease.serving(woke));
    lease.renewed(woke + 5, true);
    assertTrue(lease.serving(woke + 10));
  }

  @Test
  void aShardWhoseEpochMovedOnNeverOpensAgainUnderItsOldLease() {
    ShardLease lease = serving(0);
    lease.renewed(750, false); // PostgreSQL: another node holds it now
    assertEquals(ShardLease.State.ABSENT, lease.state());
    assertEquals(-1, lease.epoch());
    lease.renewed(1_500, true); // a straggling answer for the old epoch
    lease.loaded();
    assertFalse(lease.serving(1_600));
    lease.claimed(9, 2_000); // a new claim, a new epoch
    lease.loaded();
    assertTrue(lease.serving(2_100));
    assertEquals(9, lease.epoch());
  }

  @Test
  void aShardBeingHandedOverTakesNoCallsAndIsGoneOnceReleased() {
    ShardLease lease = serving(0);
    lease.draining();
    assertFalse(lease.serving(100));
    assertEquals("the shard is being handed over", lease.closedBecause(100));
    lease.renewed(750, true); // still renewed while the writer drains
    lease.loaded(); // a late load completion does not reopen it
    assertFalse(lease.serving(800));
    lease.lost();
    assertEquals(ShardLease.State.ABSENT, lease.state());
  }

  @Test
  void theMarginMustLeaveSomeLease() {
    assertThrows(IllegalArgumentException.class, () -> new ShardLease(L, L));
    assertThrows(IllegalArgumentException.class, () -> new ShardLease(L, -1));
    assertNull(serving(0).closedBecause(1));
  }

  /**
   * Against a reference over random claims, loads, renewals (confirmed or not, answered out of
   * order), hand-overs and pauses: the shard serves exactly while it is loaded under its current
   * claim and the newest confirmed send time of that claim is less than the lease less the margin
   * ago. Since PostgreSQL lets another node take it only a lease after a confirmed renewal
   * executed, this node never serves once another may hold it (clock rates within the margin).
   */
  @Test
  void itServesExactlyWhileTheNewestConfirmedSendOfItsClaimIsRecentEnough() {
    for (int seed = 0; seed < 200; seed++) {
      Random random = new Random(seed);
      ShardLease lease = new ShardLease(L, M);
      boolean held = false;
      boolean loaded = false;
      boolean draining = false;
      long newestSent = Long.MIN_VALUE;
      long now = 0;
      long epoch = 0;
      for (int step = 0; step < 500; step++) {
        now += random.nextInt(random.nextInt(20) == 0 ? 8_000 : 600);
        long sent = now - random.nextInt(1_500); // sent earlier, answered now
        switch (random.nextInt(8)) {
          case 0 -> {
            lease.claimed(++epoch, sent);
            held = true;
            loaded = false;
            draining = false;
            newestSent = sent;
          }
          case 1 -> {
            lease.loaded();
            loaded = held && !draining || loaded;
          }
          case 2, 3, 4 -> {
            boolean confirmed = random.nextInt(12) != 0;
            lease.renewed(sent, confirmed);
            if (held && confirmed) {
              newestSent = Math.max(newestSent, sent);
            } else if (held) {
              held = false;
            }
          }
          case 5 -> {
            lease.draining();
            draining = held || draining;
          }
          case 6 -> {
            if (random.nextInt(4) == 0) {
              lease.lost();
              held = false;
            }
          }
          default -> { } // time passes
        }
        if (!held) {
          loaded = false;
          draining = false;
        }
        boolean expected = held && loaded && !draining && now < newestSent + L - M;
        assertEquals(expected, lease.serving(now), "seed " + seed + " step " + step);
        assertEquals(expected, lease.closedBecause(now) == null);
      }
    }
  }

  private static ShardLease serving(long claimSentAt) {
    ShardLease lease = new ShardLease(L, M);
    lease.claimed(1, claimSentAt);
    lease.loaded();
    return lease;
  }
}
