package dev.sluice.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.persistence.Lease.State;
import org.junit.jupiter.api.Test;

/** The lease's transitions, on a manual clock (milliseconds). */
class LeaseTest {
  static final long LEASE = 4000;

  /** Claimed at epoch 7 with the lock query sent at 1000 and answered at 1010; a clean predecessor. */
  static Lease held() {
    return Lease.claimed(7, true, 1000, 1010, LEASE);
  }

  @Test
  void aCleanTakeOverServesAtOnceUntilTheLeaseRunsOut() {
    Lease lease = held();
    assertTrue(lease.mayServe(1010));
    assertTrue(lease.mayServe(4999));
    assertFalse(lease.mayServe(5000), "the lease counts from the lock query's send time");
    assertTrue(lease.notServingReason(5000).contains("not been confirmed"), lease.notServingReason(5000));
    assertEquals(State.HOLDING, lease.state(), "an expired lease is not a lost lock: a heartbeat may still confirm it");
  }

  @Test
  void afterAnUncleanPredecessorServingWaitsALeaseFromTheLock() {
    Lease lease = Lease.claimed(8, false, 1000, 1010, LEASE);
    lease.heartbeat(4000, 8);
    assertFalse(lease.mayServe(1010));
    assertFalse(lease.mayServe(5009));
    assertTrue(lease.notServingReason(5009).contains("previous owner's lease"), lease.notServingReason(5009));
    assertEquals(5010, lease.nextChangeAt(2000), "the moment it may serve");
    assertTrue(lease.mayServe(5010));
    assertNull(lease.notServingReason(5010));
  }

  @Test
  void eachAnsweredHeartbeatRenewsFromItsSendTime() {
    Lease lease = held();
    lease.heartbeat(2000, 7);
    assertTrue(lease.mayServe(5999));
    assertFalse(lease.mayServe(6000));
    assertEquals(6000, lease.nextChangeAt(3000));
  }

  @Test
  void aHeartbeatAnsweredLateRenewsOnlyFromWhenItWasSent() {
    Lease lease = held();
    lease.heartbeat(2000, 7);
    // Sent at 3000, answered at 6500: the lock was held at 3000, nothing is known after.
    lease.heartbeat(3000, 7);
    assertTrue(lease.mayServe(6500));
    assertFalse(lease.mayServe(7000));
    // An older heartbeat answered after a newer one does not shorten the lease.
    lease.heartbeat(2500, 7);
    assertTrue(lease.mayServe(6999));
  }

  @Test
  void wakingAfterAPauseLongerThanTheLeaseRefusesUntilAHeartbeatSentAfterWakingIsAnswered() {
    Lease lease = held();
    lease.heartbeat(2000, 7);
    // Paused at 2100 for 20 s: the heartbeat sent just before the pause is answered on waking.
    lease.heartbeat(2050, 7);
    long woke = 22_100;
    assertFalse(lease.mayServe(woke), "the lease ran out while the process was paused");
    assertEquals(Long.MAX_VALUE, lease.nextChangeAt(woke), "only a heartbeat can bring it back");
    lease.heartbeat(woke + 5, 7);
    assertTrue(lease.mayServe(woke + 20), "a heartbeat sent after waking confirms the lock");
  }

  @Test
  void aLostLockSuspendsAndRetakingItAtTheSameEpochResumes() {
    Lease lease = held();
    lease.lost();
    assertEquals(State.SUSPENDED, lease.state());
    assertFalse(lease.mayServe(1500));
    assertTrue(lease.notServingReason(1500).contains("lost"), lease.notServingReason(1500));
    lease.heartbeat(1600, 7);
    assertFalse(lease.mayServe(1700), "a heartbeat does not end a suspension: only retaking the lock does");
    lease.heldElsewhere(7);
    assertEquals(State.SUSPENDED, lease.state(), "the lock held by a stale session of ours, the epoch unchanged");
    lease.retaken(9000, 7);
    assertEquals(State.HOLDING, lease.state());
    assertTrue(lease.mayServe(9010), "nobody else owned the database meanwhile: same token, serving again");
    assertEquals(7, lease.epoch());
    assertFalse(lease.mayServe(13_000));
  }

  @Test
  void retakingTheLockToFindAnotherEpochFences() {
    Lease lease = held();
    lease.lost();
    lease.retaken(9000, 8);
    assertEquals(State.FENCED, lease.state());
    assertFalse(lease.mayServe(9010));
    assertTrue(lease.notServingReason(9010).contains("epoch 8"), lease.notServingReason(9010));
  }

  @Test
  void whileSuspendedAnEpochMovedByAnotherServerFences() {
    Lease lease = held();
    lease.lost();
    lease.heldElsewhere(8);
    assertEquals(State.FENCED, lease.state());
  }

  @Test
  void aHeartbeatReadingAnotherEpochFences() {
    Lease lease = held();
    lease.heartbeat(2000, 9);
    assertEquals(State.FENCED, lease.state());
    assertFalse(lease.mayServe(2001));
  }

  @Test
  void aWriteRefusedByTheFenceFencesUnlessItCarriedAnotherToken() {
    Lease lease = held();
    lease.writeRefused(6);
    assertEquals(State.HOLDING, lease.state(), "a refusal of an attempt made with another token says nothing of ours");
    lease.writeRefused(7);
    assertEquals(State.FENCED, lease.state());
    assertTrue(lease.notServingReason(1500).contains("refused its write"), lease.notServingReason(1500));
  }

  @Test
  void fencedIsTerminal() {
    Lease lease = held();
    lease.writeRefused(7);
    lease.heartbeat(2000, 7);
    lease.lost();
    lease.retaken(3000, 7);
    lease.heldElsewhere(7);
    assertEquals(State.FENCED, lease.state());
    assertFalse(lease.mayServe(3001));
    assertEquals(Long.MAX_VALUE, lease.nextChangeAt(3001));
  }

  @Test
  void aSnapshotKeepsWhatItSawWhileTheLeaseGoesOn() {
    Lease lease = held();
    Lease before = lease.snapshot();
    lease.lost();
    assertTrue(before.mayServe(1500));
    assertFalse(lease.mayServe(1500));
    assertFalse(before.mayServe(5000), "a snapshot expires like the lease it copies");
  }
}
