package dev.sluice.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.RelaySend;
import dev.sluice.api.SqsException;
import dev.sluice.engine.RelayActions;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/**
 * A round's sends against a fake target: every row is deleted, dead or kept as the answers say,
 * and a destination stops at its first failure that passes, so no later row of a FIFO group goes first.
 */
class RoundSenderTest {
  /** A target answering each call by {@code answer}, recording the calls in order. */
  static final class FakeTarget implements RelayTarget {
    final List<String> calls = new ArrayList<>();
    final BiFunction<String, List<RelaySend.Entry>, Future<RelaySend.Response>> answer;

    FakeTarget(BiFunction<String, List<RelaySend.Entry>, Future<RelaySend.Response>> answer) {
      this.answer = answer;
    }

    @Override
    public Future<RelaySend.Response> send(String queueName, long epoch, List<RelaySend.Entry> entries) {
      assertEquals(7L, epoch, "every call carries the round's epoch");
      calls.add(queueName + " " + entries.stream().map(RelaySend.Entry::rowId).toList());
      return answer.apply(queueName, entries);
    }

    @Override
    public Future<Void> forget(String queueName, long epoch, List<Long> rowIds) {
      return Future.succeededFuture();
    }

    @Override
    public Future<List<RelaySend.Held>> heldHere() {
      return Future.succeededFuture(List.of());
    }
  }

  static RelaySend.Result sent(long id) {
    return new RelaySend.Result(id, "m" + id, false, null, null, false);
  }

  static RelaySend.Result refused(long id, ErrorCode code, String message) {
    return new RelaySend.Result(id, null, false, code.queryCode(), message, RelayActions.rowAtFault(code));
  }

  static Future<RelaySend.Response> allSent(String queue, List<RelaySend.Entry> entries) {
    return Future.succeededFuture(new RelaySend.Response(entries.stream().map(e -> sent(e.rowId())).toList()));
  }

  static List<OutboxRow> rows(String queue, long from, long to) {
    List<OutboxRow> rows = new ArrayList<>();
    for (long id = from; id <= to; id++) {
      rows.add(RoundPlanTest.row(id, queue));
    }
    return rows;
  }

  static RoundOutcome run(FakeTarget target, List<OutboxRow> rows) {
    Future<RoundOutcome> f = new RoundSender(target).send(RoundPlan.of(rows), 7);
    assertNotNull(f.result(), "settled at once: the fake answers synchronously");
    return f.result();
  }

  @Test
  void everySentRowIsDeletedAndItsReceiptForgottenByQueue() {
    List<OutboxRow> rows = new ArrayList<>(rows("a", 1, 12));
    rows.add(RoundPlanTest.row(13, "b"));
    FakeTarget target = new FakeTarget(RoundSenderTest::allSent);
    RoundOutcome o = run(target, rows);
    assertEquals(List.of("a [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]", "a [11, 12]", "b [13]"), target.calls);
    assertEquals(13, o.deleted().size());
    assertEquals(Map.of("a", rows("a", 1, 12).stream().map(OutboxRow::id).toList(), "b", List.of(13L)), o.stored());
    assertEquals(0, o.kept());
  }

  @Test
  void aDuplicateIsDeletedLikeASend() {
    FakeTarget target = new FakeTarget((q, entries) -> Future.succeededFuture(new RelaySend.Response(
        List.of(new RelaySend.Result(1, "m-first", true, null, null, false)))));
    RoundOutcome o = run(target, rows("q", 1, 1));
    assertEquals(List.of(1L), o.deleted());
  }

  @Test
  void aRowRefusedForGoodIsDeadAndTheRowsBehindItFlow() {
    FakeTarget target = new FakeTarget((q, entries) -> Future.succeededFuture(new RelaySend.Response(entries.stream()
        .map(e -> e.rowId() == 3 ? refused(3, ErrorCode.INVALID_PARAMETER_VALUE, "too long") : sent(e.rowId()))
        .toList())));
    RoundOutcome o = run(target, rows("q.fifo", 1, 15));
    assertEquals(List.of(new DeadRow(3, "InvalidParameterValue", "too long")), o.dead());
    assertEquals(14, o.deleted().size());
    assertEquals(2, target.calls.size());
    assertEquals(15, o.leaving().size());
  }

  @Test
  void aMissingQueueMakesItsRowsDeadAndOtherDestinationsFlow() {
    FakeTarget target = new FakeTarget((q, entries) -> q.equals("gone")
        ? Future.failedFuture(SqsException.queueDoesNotExist()) : allSent(q, entries));
    List<OutboxRow> rows = new ArrayList<>(rows("gone", 1, 11));
    rows.addAll(rows("ok", 12, 13));
    RoundOutcome o = run(target, rows);
    assertEquals(11, o.dead().size());
    assertEquals("AWS.SimpleQueueService.NonExistentQueue", o.dead().get(0).errorCode());
    assertEquals(List.of(12L, 13L), o.deleted());
  }

  @Test
  void aFailureThatPassesKeepsTheRowAndStopsItsDestination() {
    FakeTarget target = new FakeTarget((q, entries) -> q.equals("busy") && entries.get(0).rowId() == 11
        ? Future.failedFuture(new SqsException(ErrorCode.SERVICE_UNAVAILABLE, "writer behind"))
        : allSent(q, entries));
    List<OutboxRow> rows = new ArrayList<>(rows("busy", 1, 35));
    rows.addAll(rows("calm", 36, 36));
    RoundOutcome o = run(target, rows);
    assertEquals(List.of("busy [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]", "busy [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]",
        "calm [36]"), target.calls, "the chunks after the failed one are not sent");
    assertEquals(11, o.deleted().size());
    assertEquals(25, o.kept());
    assertEquals(List.of(), o.dead());
    assertEquals("busy: ServiceUnavailable: writer behind", o.lastFailure());
  }

  @Test
  void throttlingAndTimeoutsPassAndAccessDeniedIsForGood() {
    FakeTarget throttled = new FakeTarget((q, entries) -> Future.succeededFuture(new RelaySend.Response(List.of(
        sent(1), refused(2, ErrorCode.REQUEST_THROTTLED, "slow down"), sent(3)))));
    RoundOutcome o = run(throttled, rows("q", 1, 3));
    assertEquals(List.of(1L, 3L), o.deleted());
    assertEquals(1, o.kept());
    assertEquals(List.of(), o.dead());
    FakeTarget timedOut = new FakeTarget((q, entries) -> Future.failedFuture(new java.util.concurrent.TimeoutException(
        "no answer")));
    assertEquals(3, run(timedOut, rows("q", 1, 3)).kept());
    FakeTarget denied = new FakeTarget((q, entries) -> Future.failedFuture(new SqsException(ErrorCode.ACCESS_DENIED,
        "not yours")));
    assertEquals(3, run(denied, rows("q", 1, 3)).dead().size());
  }

  @Test
  void anAnswerOfTheWrongLengthKeepsTheChunk() {
    FakeTarget target = new FakeTarget((q, entries) -> Future.succeededFuture(new RelaySend.Response(List.of(
        sent(1)))));
    RoundOutcome o = run(target, rows("q", 1, 2));
    assertEquals(List.of(), o.deleted());
    assertEquals(2, o.kept());
  }

  @Test
  void aTargetThatThrowsKeepsTheChunk() {
    FakeTarget target = new FakeTarget((q, entries) -> {
      throw new IllegalStateException("engine stopping");
    });
    assertEquals(4, run(target, rows("q", 1, 4)).kept());
  }
}
