package dev.sluice.model;

import static dev.sluice.model.ShardFixture.message;
import static dev.sluice.model.ShardFixture.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.ReceiveMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Paging of a standard queue (design page §2.5–2.7) with a window of 3, 1 ms buckets and a store
 * that commits and answers only when the test says: which sends stay resident, that page reads stop
 * short of uncommitted rows, that a stale answer is dropped, extras, and the counts.
 */
class BacklogTest {
  final FakeBacklogStore fake = FakeBacklogStore.manual();
  /** Run 1: the restart cases' rows of run 0 have keys below this run's. */
  final ShardFixture shard = ShardFixture.paged(1L << 30, 120_000, ShardFixture.window(3), fake, 1);
  final QueueState q = shard.create("orders", Map.of());
  final long id = q.metadata().generation();

  /** Set by the one test that makes the counts wrong on purpose, and sees them set right. */
  boolean countsMadeWrong;

  @AfterEach
  void noRowReadTwice() {
    if (!countsMadeWrong) {
      shard.assertBacklogsSound();
    }
  }

  Message send(String body, Integer delaySeconds) {
    q.send(message(body, delaySeconds), false, shard.now);
    return fake.uncommitted.get(fake.uncommitted.size() - 1).stored;
  }

  List<String> receive(int max) {
    return q.receive(spec(max, 30), shard.now).stream().map(ReceiveMessage.Message::body).toList();
  }

  /** Commits everything, asks for a page and answers it (and any expiry under way). */
  void pageIn() {
    fake.commitAll();
    q.maintain(shard.now);
    while (!fake.reads.isEmpty() || !fake.expiries.isEmpty()) {
      fake.answerAll();
      q.maintain(shard.now);
    }
  }

  String counts() {
    return q.approximateNumberOfMessages(shard.now) + "/" + q.approximateNumberOfMessagesNotVisible() + "/"
        + q.approximateNumberOfMessagesDelayed(shard.now);
  }

  @Test
  void sendsBeyondTheWindowAreSpilledCountedAndChargeNothing() {
    send("a", null);
    send("b", null);
    send("c", null);
    long charged = shard.budget.usedBytes();
    Message d = send("d", null);
    assertEquals(MessageState.PAGED_OUT, d.state());
    assertEquals(charged, shard.budget.usedBytes());
    assertEquals(1, q.backlog().counts().pagedOut());
    assertEquals("4/0/0", counts());
    assertEquals(List.of("a", "b", "c"), receive(10), "nothing is read while d's write is uncommitted");
    pageIn();
    assertEquals(List.of("d"), receive(10));
    assertEquals(0, q.backlog().counts().pagedOut());
  }

  @Test
  void whileARowIsDueEverySendSpillsEvenWithRoomInTheWindow() {
    for (String b : List.of("a", "b", "c", "d")) {
      send(b, null);
    }
    fake.commitAll();
    assertEquals(List.of("a"), receive(1));
    assertEquals(MessageState.PAGED_OUT, send("e", null).state(), "e would overtake d");
    pageIn();
    assertTrue(fake.reads.isEmpty() && fake.pageReads == 0, "two of three still visible: no read yet");
    assertEquals(List.of("b", "c"), receive(10));
    pageIn();
    assertEquals(List.of("d", "e"), receive(10), "delivery order is kept across the spill");
  }

  @Test
  void aDelayWithinTheHorizonStaysResidentAsAnExtraAndALongerOneSpillsToTheFuture() {
    Message extra = send("in 5 s", 5);
    Message later = send("in 40 s", 40); // beyond the 30 s horizon
    assertEquals(MessageState.DELAYED, extra.state());
    assertEquals(MessageState.PAGED_OUT, later.state());
    assertEquals("0/0/2", counts());
    assertEquals(DeliveryPosition.MIN, q.backlog().frontier(), "an extra leaves the frontier alone");
    shard.advance(5_000);
    assertEquals(MessageState.READY, extra.state(), "nothing durable-only comes before it: promoted");
    assertEquals(DeliveryPosition.of(extra), q.backlog().frontier());
    assertEquals("1/0/1", counts());
    shard.advance(34_999);
    assertEquals("1/0/1", counts());
    shard.advance(1);
    assertEquals("2/0/0", counts(), "its bucket matured: the durable-only row is visible");
    assertEquals(List.of("in 5 s"), receive(10));
    pageIn();
    assertEquals(List.of("in 40 s"), receive(10));
  }

  @Test
  void aSendDueAfterADurableOnlyFutureRowSpillsAndOneDueBeforeItStaysResident() {
    ShardFixture wide = ShardFixture.paged(new HeadWindow(3, 1 << 20, 1000, 60_000, 1), fake);
    QueueState w = wide.create("wide", Map.of());
    for (int i = 0; i < 3; i++) {
      w.send(message("r" + i), false, wide.now);
    }
    w.send(message("in 40 s", 40), false, wide.now); // window full: spilled, future
    fake.commitAll();
    w.receive(spec(1, 30), wide.now);
    w.send(message("in 50 s", 50), false, wide.now);
    assertEquals(MessageState.PAGED_OUT, fake.uncommitted.get(fake.uncommitted.size() - 1).stored.state(),
        "within the horizon, but after a durable-only row");
    w.send(message("in 20 s", 20), false, wide.now);
    assertEquals(MessageState.DELAYED, fake.uncommitted.get(fake.uncommitted.size() - 1).stored.state(),
        "before every durable-only row: resident");
    wide.assertBacklogsSound();
  }

  @Test
  void aPagedQueueSpillsWhenTheBudgetIsSpentInsteadOfRefusingTheSend() {
    FakeBacklogStore store = FakeBacklogStore.manual();
    ShardFixture tight = ShardFixture.paged(2 * (ArrivingMessages.MESSAGE_OVERHEAD_BYTES + 1), 100,
        ShardFixture.window(3), store);
    QueueState t = tight.create("tight", Map.of());
    for (String b : List.of("a", "b", "c")) {
      t.send(message(b), false, tight.now);
    }
    assertEquals(MessageState.PAGED_OUT, store.uncommitted.get(2).stored.state());
    assertEquals(3, t.approximateNumberOfMessages(shard.now));
  }

  @Test
  void aReadStopsShortOfTheFirstUncommittedRowWhateverCommittedAfterIt() {
    for (String b : List.of("a", "b", "c", "d", "e")) {
      send(b, null);
    }
    fake.commit(4); // e's write commits before d's (another lane)
    q.maintain(shard.now);
    assertEquals(List.of("a", "b", "c"), receive(10));
    q.maintain(shard.now);
    assertTrue(fake.reads.isEmpty(), "d is uncommitted and comes first: no read may pass it");
    fake.commitAll();
    q.maintain(shard.now);
    assertEquals(1, fake.reads.size());
    PageRequest asked = fake.reads.get(0).request;
    assertEquals(q.backlog().frontier(), asked.after());
    fake.answer(0);
    assertEquals(List.of("d", "e"), receive(10));
    assertEquals("0/5/0", counts());
  }

  @Test
  void aRowSpilledWhileAReadRunsIsAfterItsBoundAndReadNext() {
    for (String b : List.of("a", "b", "c", "d")) {
      send(b, null);
    }
    fake.commitAll();
    receive(10);
    q.maintain(shard.now);
    fake.snapshot(0); // the read's snapshot is taken now
    Message e = send("e", null); // a page is being read: e spills behind it
    assertTrue(fake.reads.get(0).request.upTo().compareTo(DeliveryPosition.of(e)) < 0,
        "the read in flight cannot reach e, though it spilled in the same millisecond");
    fake.commitAll();
    fake.answer(0);
    assertEquals(List.of("d"), receive(10));
    pageIn();
    assertEquals(List.of("e"), receive(10));
  }

  @Test
  void anAnswerAskedBeforeAPurgeIsDropped() {
    for (String b : List.of("a", "b", "c", "d")) {
      send(b, null);
    }
    fake.commitAll();
    receive(10);
    q.maintain(shard.now);
    fake.snapshot(0); // holds d
    q.purge(shard.now);
    assertEquals("0/0/0", counts());
    assertEquals(MessageState.PAGED_OUT, send("after", null).state(), "one backlog read at a time, stale or not");
    fake.answer(0);
    assertEquals("1/0/0", counts(), "d was purged: the stale page brings nothing");
    pageIn();
    assertEquals(List.of("after"), receive(10));
    assertEquals(1, q.backlog().epoch());
  }

  @Test
  void anExtraDueBehindDurableOnlyRowsIsEvictedAndReadBackInItsTurn() {
    Message extra = send("extra", 5);
    send("a", null);
    send("b", null);
    send("c", null); // window full (the extra counts): spilled, due
    long charged = shard.budget.usedBytes();
    shard.advance(5_000);
    assertEquals(MessageState.PAGED_OUT, extra.state());
    assertEquals(charged - extra.heldBytes, shard.budget.usedBytes(), "its memory was released");
    assertEquals(2, q.backlog().uncommittedCount(), "neither its write nor c's has committed");
    assertEquals("4/0/0", counts());
    assertEquals(List.of("a", "b"), receive(10));
    pageIn();
    assertEquals(List.of("c", "extra"), receive(10));
  }

  @Test
  void anEvictedExtraWhoseWriteCommittedDoesNotHoldReadsBack() {
    Message extra = send("extra", 5);
    send("a", null);
    send("b", null);
    send("c", null);
    fake.commitAll();
    shard.advance(5_000);
    assertEquals(MessageState.PAGED_OUT, extra.state());
    assertEquals(0, q.backlog().uncommittedCount());
    assertEquals(List.of("a", "b"), receive(10));
    q.maintain(shard.now);
    fake.answer(0);
    assertEquals(List.of("c", "extra"), receive(10));
  }

  @Test
  void aSpillWhoseWriteFailsIsUncountedAndNeverRead() {
    for (String b : List.of("a", "b", "c", "d", "e")) {
      send(b, null);
    }
    Message d = fake.uncommitted.get(3).stored;
    fake.fail(3);
    assertEquals(MessageState.GONE, d.state());
    assertEquals("4/0/0", counts());
    assertEquals(List.of("a", "b", "c"), receive(10));
    pageIn();
    assertEquals(List.of("e"), receive(10));
    assertEquals("0/4/0", counts());
  }

  @Test
  void countsAndOldestAgeIncludeDurableOnlyRows() {
    send("a", null);
    shard.advance(1_000);
    send("b", null);
    send("c", null);
    send("d", null);
    send("e", 100);
    long sentA = shard.now - 1_000;
    assertEquals("4/0/1", counts());
    fake.commitAll();
    assertEquals(List.of("a"), receive(1));
    String handle = q.receive(spec(1, 30), shard.now).get(0).receiptHandle(); // b
    assertEquals(sentA, q.oldestSentAtMillis());
    assertEquals("2/2/1", counts());
    assertEquals(2, q.backlog().counts().pagedOut());
    q.delete(handle, shard.now);
    assertEquals("2/1/1", counts());
  }

  @Test
  void aRowExpiredWhileDurableOnlyIsDeletedWhereItIsNotReadBack() {
    q.setAttributes(Map.of("MessageRetentionPeriod", "60"), shard.now);
    for (String b : List.of("a", "b", "c")) {
      send(b, null);
    }
    Message d = send("d", null);
    shard.advance(1_000);
    Message e = send("e", null);
    fake.commitAll();
    shard.advance(59_000); // a, b, c expire from memory, and d's retention ends
    assertEquals(1, fake.expiries.size(), "an expiry is asked for when the oldest durable-only row expires");
    assertEquals("2/0/0", counts(), "until it is answered, d still counts");
    fake.answerExpiry(0);
    fake.commitAll();
    assertEquals("1/0/0", counts());
    assertNull(fake.row(id, d.key()), "d's row was deleted");
    assertEquals(e.sentAtMillis, q.oldestSentAtMillis(), "the oldest left was measured");
    assertEquals(0, fake.pageReads, "nothing was read back to be dropped");
    shard.advance(1_000); // e expires too: by an expiry, or dropped by the read that waited for it
    pageIn();
    fake.commitAll();
    assertEquals("0/0/0", counts());
    assertTrue(fake.rows(id).isEmpty());
  }

  /**
   * On a queue with a delay, a durable-only row whose retention ended is deleted only once it is
   * visible too (ExpirySql), and it is still the oldest left: the next expiry was due at once, again
   * and again, and page reads (which wait for expiries, I5) never got their turn. Found by review.
   */
  @Test
  void expiredRowsStillDelayedDoNotKeepTheExpiryRunningAheadOfPageReads() {
    q.setAttributes(Map.of("MessageRetentionPeriod", "60", "DelaySeconds", "10"), shard.now);
    for (int i = 0; i < 30; i++) {
      send("m" + i, null);
      shard.advance(1_000);
    }
    fake.commitAll();
    shard.advance(45_000); // m0..m5 expired (sent more than 60 s ago), none visible for 60 s yet
    int before = fake.expiriesRun;
    List<String> received = new ArrayList<>();
    for (int step = 0; step < 100; step++) { // one second in steps of 10 ms; the queue's own timers ask
      fake.commitAll();
      fake.answerAll();
      received.addAll(receive(10));
      shard.advance(10);
    }
    assertTrue(fake.expiriesRun - before <= 3, (fake.expiriesRun - before) + " expiries in one second");
    // m0..m15 expired by the end (sent more than 60 s before it); the rest came through pages.
    assertEquals(java.util.stream.IntStream.range(16, 30).mapToObj(i -> "m" + i).toList(), received);
  }

  @Test
  void aRowReadBackAfterItsRetentionEndedIsDeletedNotDelivered() {
    q.setAttributes(Map.of("MessageRetentionPeriod", "60"), shard.now);
    for (String b : List.of("a", "b", "c")) {
      send(b, null);
    }
    Message d = send("d", 50);
    fake.commitAll();
    shard.advance(60_000);
    fake.answerAll(); // the expiry finds d not visible for its whole retention: not its to delete (ExpirySql)
    assertEquals(0, q.backlog().operations().rowsExpired());
    assertEquals(List.of(), receive(10));
    pageIn();
    fake.commitAll();
    assertEquals("0/0/0", counts());
    assertNull(fake.row(id, d.key()), "d's row was deleted");
    assertTrue(fake.rows(id).isEmpty());
  }

  @Test
  void aLongPollIsServedByThePageItsQueueAsksForInTheBackground() {
    for (String b : List.of("a", "b", "c", "d")) {
      send(b, null);
    }
    fake.commitAll();
    receive(10);
    ShardFixture.Recorder waiting = new ShardFixture.Recorder(spec(5, 30));
    q.park(waiting.waiter, shard.now + 20_000);
    assertTrue(waiting.completions.isEmpty());
    shard.advance(0); // the queue's own timer: a safe point after the call
    assertFalse(fake.reads.isEmpty());
    fake.answer(0);
    assertEquals("d", waiting.completions.get(0).get(0).body());
  }

  @Test
  void aMessageHandedBackStaysResidentBeforeTheFrontier() {
    QueueState dlq = shard.create("dlq", Map.of());
    dlq.send(message("dead"), false, shard.now);
    fake.commitAll();
    shard.registry.delete("orders", shard.now); // the move task's destination is gone
    MessageMoveTask task = dlq.startMoveTask(q.metadata().arn(), null, shard.mover, shard.now);
    shard.advance(0);
    assertEquals(MessageMoveTask.Status.FAILED, task.status());
    Message back = fake.uncommitted.get(fake.uncommitted.size() - 1).stored;
    assertEquals(MessageState.READY, back.state());
    assertTrue(DeliveryPosition.of(back).compareTo(dlq.backlog().frontier()) <= 0);
    assertEquals(1, dlq.approximateNumberOfMessages(shard.now));
  }

  /** Keys of the earlier run's rows start after this one (run 0). */
  static final long OLD = 0;

  /** A row an earlier run stored: sent at {@code sentAt}, first visible at {@code firstVisibleAt}. */
  static RestoredMessage row(long key, String body, long sentAt, long firstVisibleAt, int receiveCount,
      long visibleAt) {
    return RestoredMessage.of(key, java.util.UUID.randomUUID(), body, Map.of(), null, "sender", sentAt, null, null, 0,
        null, visibleAt, receiveCount, receiveCount > 0 ? sentAt : 0, receiveCount, firstVisibleAt, Arrival.SENT);
  }

  @Test
  void afterARestartOnlyRowsUpToThePersistedFrontierAreLoadedAndTheRestIsCountedAndReadBackInOrder() {
    long t = shard.now;
    // An earlier run: k1 received (in flight until t + 60 s) and k2 deleted, so F = k2's place; k3..k6
    // never received and due, k7 due in 40 s. Only k1 comes back with the resident region.
    RestoredMessage inFlight = row(OLD + 1, "k1", t - 100, t - 100, 1, t + 60_000);
    for (int k = 3; k <= 6; k++) {
      fake.storedBefore(id, row(OLD + k, "k" + k, t - 100 + k, t - 100 + k, 0, 0));
    }
    fake.storedBefore(id, row(OLD + 7, "k7", t - 50, t + 40_000, 0, t + 40_000));
    q.restore(inFlight, t);
    q.restoreBacklog(t - 98, OLD + 2, 5, Map.of(t + 40_000, 1), t - 97, t, t);
    assertEquals(new DeliveryPosition(t - 98, OLD + 2), q.backlog().frontier());
    assertEquals("4/1/1", counts(), "k3..k6 visible, k1 in flight, k7 delayed");
    assertEquals(t - 100, q.oldestSentAtMillis());
    List<String> got = new java.util.ArrayList<>();
    for (int i = 0; i < 5 && got.size() < 4; i++) {
      pageIn();
      got.addAll(receive(10));
    }
    assertEquals(List.of("k3", "k4", "k5", "k6"), got, "in delivery order, each once, window of 3 or not");
    assertEquals("0/5/1", counts());
    shard.advance(40_000);
    assertEquals("5/1/0", counts(), "k7's bucket matured; k3..k6 visible again after 30 s");
    List<String> again = new java.util.ArrayList<>(receive(10));
    pageIn();
    again.addAll(receive(10));
    assertEquals(List.of("k3", "k4", "k5", "k6", "k7"), again.stream().sorted().toList());
    assertEquals(0, q.backlog().counts().pagedOut());
  }

  @Test
  void aRestartedQueueWithARowDueSpillsNewSendsBehindIt() {
    long t = shard.now;
    fake.storedBefore(id, row(OLD + 1, "old", t - 10, t - 10, 0, 0));
    q.restoreBacklog(Long.MIN_VALUE, Long.MIN_VALUE, 1, Map.of(), t - 10, t, t);
    assertEquals(MessageState.PAGED_OUT, send("new", null).state(), "it would overtake the old row");
    fake.commitAll();
    List<String> got = new java.util.ArrayList<>();
    for (int i = 0; i < 4 && got.size() < 2; i++) {
      pageIn();
      got.addAll(receive(10));
    }
    assertEquals(List.of("old", "new"), got);
  }

  // ---- review of f89832b: defects and their scenarios ----------------------------------------

  @Test
  void anExtraWhoseWriteCommitsAfterItsDelayEndedIsEvictedWhenDurableOnlyRowsComeFirst() {
    FakeBacklogStore held = FakeBacklogStore.manualHoldingSends(); // durability commit
    ShardFixture s = ShardFixture.paged(ShardFixture.window(2), held);
    QueueState c = s.create("commit", Map.of());
    c.send(message("a"), false, s.now);
    c.send(message("E", 1), false, s.now);
    Message e = held.uncommitted.get(1).stored;
    c.send(message("s"), false, s.now); // the window (a and E) is full: spilled
    held.commitStored(held.uncommitted.get(0).stored);
    held.commitStored(held.uncommitted.get(1).stored);
    s.advance(1_200);
    c.send(message("s2"), false, s.now); // a durable-only row is due: spilled
    held.commitAll();
    assertEquals(MessageState.PAGED_OUT, e.state(),
        "its delay ended before its write committed, behind durable-only rows: evicted, not shown");
    assertEquals(List.of("a"), bodies(c.receive(spec(10, 30), s.now)));
    List<String> got = new java.util.ArrayList<>();
    for (int round = 0; round < 3; round++) { // a window of 2: a page at a time
      c.maintain(s.now);
      while (!held.reads.isEmpty()) {
        held.answer(0);
      }
      got.addAll(bodies(c.receive(spec(10, 30), s.now)));
    }
    assertEquals(List.of("s", "E", "s2"), got, "in delivery order, each once");
    assertEquals(0, c.backlog().counts().pagedOut());
    s.assertBacklogsSound();
  }

  static List<String> bodies(List<ReceiveMessage.Message> got) {
    return got.stream().map(ReceiveMessage.Message::body).toList();
  }

  @Test
  void aReadAskedWhileAnExtraIsOverdueStopsShortOfItSoThatItsEvictionLosesNothing() {
    Message extra = send("E", 1);
    send("a", null);
    send("b", null);
    send("c", null); // window full: spilled
    fake.commitStored(fake.uncommitted.get(1).stored);
    fake.commitStored(fake.uncommitted.get(1).stored);
    fake.commitStored(fake.uncommitted.get(1).stored); // a, b and c; not E
    assertEquals(List.of("a", "b"), receive(2));
    shard.now += 1_200; // E is due, but its timer has not fired yet (a late timer, a busy loop)
    Message d = send("d", null);
    fake.commitStored(d);
    q.maintain(shard.now);
    assertEquals(1, fake.reads.size());
    assertTrue(fake.reads.get(0).request.upTo().compareTo(DeliveryPosition.of(extra)) < 0,
        "the read stops short of the overdue extra, which its timer may evict while the read runs");
    shard.advance(0); // E's timer: a read runs, so it is evicted
    assertEquals(MessageState.PAGED_OUT, extra.state());
    fake.answer(0);
    fake.commitAll();
    pageIn();
    assertEquals(List.of("c", "E", "d"), receive(10));
    assertEquals("0/5/0", counts());
  }

  @Test
  void dueDurableOnlyRowsAreReadWhileTheWindowIsFullOfExtras() {
    for (String b : List.of("x", "y", "z")) {
      send(b, 20);
    }
    Message v = send("v", null);
    assertEquals(MessageState.PAGED_OUT, v.state(), "the window is full of extras");
    fake.commitAll();
    assertEquals("1/0/3", counts());
    ShardFixture.Recorder waiting = new ShardFixture.Recorder(spec(5, 30));
    q.park(waiting.waiter, shard.now + 20_000);
    shard.advance(0);
    assertEquals(1, fake.reads.size(), "nothing visible is resident: a page is read");
    fake.answer(0);
    assertEquals(List.of("v"), bodies(waiting.completions.get(0)));
    assertTrue(q.backlog().inWindow() <= 2 * 3, "extras and the visible head are each at most W");
  }

  @Test
  void aReadThatMissedCommittedRowsIsRepeatedNotTakenAsWrongCounts() {
    for (String b : List.of("a", "b", "c", "d")) {
      send(b, null);
    }
    fake.commitAll();
    receive(10);
    q.maintain(shard.now);
    fake.answerEmpty(0); // its snapshot missed d
    assertEquals("1/3/0", counts(), "d still counts");
    shard.advance(0);
    assertEquals(1, fake.reads.size(), "it is read again");
    fake.answer(0);
    assertEquals(List.of("d"), receive(10));
    assertEquals(0, q.backlog().operations().countResyncs());
  }

  @Test
  void twoCompleteReadsInARowThatFindNothingSetTheCountsRight() {
    countsMadeWrong = true;
    for (String b : List.of("a", "b", "c", "d")) {
      send(b, null);
    }
    fake.commitAll();
    receive(10);
    q.maintain(shard.now);
    fake.answerEmpty(0);
    shard.advance(0);
    fake.answerEmpty(0); // d's row is really not there, as if the count were wrong
    assertEquals(1, q.backlog().operations().countResyncs());
    assertEquals("0/3/0", counts());
    shard.advance(0);
    assertTrue(fake.reads.isEmpty(), "nothing is read in a loop");
  }

  @Test
  void aCommitDuringAReadThatCameBackEmptyStillLeadsToARead() {
    for (String b : List.of("a", "b", "c", "d")) {
      send(b, null);
    }
    fake.commitAll();
    receive(10);
    shard.advance(0); // the queue's own timer asks for the read: none is left scheduled
    assertEquals(1, fake.reads.size());
    Message e = send("e", null); // spilled while the read runs, and committed
    fake.commitStored(e);
    fake.answerEmpty(0); // not a complete read (e was counted meanwhile)
    shard.advance(0);
    assertEquals(1, fake.reads.size(), "what changed during the read is looked at after it");
    fake.answer(0);
    assertEquals(List.of("d", "e"), receive(10));
  }

  @Test
  void messagesHandedBackBeyondAFullWindowStayResidentOutsideIt() {
    FakeBacklogStore eager = FakeBacklogStore.eager();
    ShardFixture s = ShardFixture.paged(ShardFixture.window(3), eager);
    QueueState dlq = s.create("dlq", Map.of());
    QueueState gone = s.create("gone", Map.of());
    for (int i = 0; i < 20; i++) {
      dlq.send(message("m" + i), false, s.now);
    }
    s.registry.delete("gone", s.now);
    MessageMoveTask task = dlq.startMoveTask(gone.metadata().arn(), null, s.mover, s.now);
    s.advance(0);
    assertEquals(MessageMoveTask.Status.FAILED, task.status());
    assertTrue(dlq.backlog().inWindow() <= 3, "window overrun: " + dlq.backlog().inWindow());
    assertEquals(20, dlq.approximateNumberOfMessages(shard.now));
    List<String> got = new java.util.ArrayList<>();
    for (int i = 0; i < 5; i++) {
      got.addAll(bodies(dlq.receive(spec(10, 30), s.now)));
    }
    assertEquals(20, got.size());
    s.assertBacklogsSound();
  }

  @Test
  void nothingMaturedMeansNoPositionIsDue() {
    assertEquals(DeliveryPosition.MIN, new BacklogCounts(1, false).lastDuePosition());
  }
}
