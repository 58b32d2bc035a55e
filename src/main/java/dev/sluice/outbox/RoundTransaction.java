package dev.sluice.outbox;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Transaction;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * One round in one transaction on the lease's session: lock up to a batch of the oldest rows
 * (skipping rows another transaction holds), send them, move the refused ones to the dead-row table,
 * delete those that left, commit. If anything fails, the transaction is rolled back and every row
 * stays: those sent already are found sent when they come again. Running on the lease's session,
 * the rows' locks and the lease end together when the session does, so a node taking the lease over
 * never sees rows whose sending is still being settled. Stateless; runs on the relay's event loop.
 */
final class RoundTransaction {
  private final OutboxSql sql;
  private final RoundSender sender;
  private final int batchSize;

  RoundTransaction(OutboxSql sql, RoundSender sender, int batchSize) {
    this.sql = sql;
    this.sender = sender;
    this.batchSize = batchSize;
  }

  /** What a committed round did: its outcome, and how many rows it read (a full batch: more may wait). */
  record Done(RoundOutcome outcome, int rowsRead) {}

  /**
   * Runs a round on {@code session}, which holds the lease of fencing token {@code epoch}, passing
   * over the rows of the destinations {@code resting}.
   */
  Future<Done> run(SqlConnection session, long epoch, Collection<Destination> resting) {
    return session.begin().compose(tx -> relay(session, epoch, resting).transform(done -> done.succeeded()
        ? tx.commit().map(committed -> done.result())
        : rollback(tx).transform(ignored -> Future.<Done>failedFuture(done.cause()))));
  }

  private Future<Done> relay(SqlConnection session, long epoch, Collection<Destination> resting) {
    String[] queues = resting.stream().filter(d -> d.kind() == Destination.Kind.QUEUE).map(Destination::name)
        .toArray(String[]::new);
    String[] topics = resting.stream().filter(d -> d.kind() == Destination.Kind.TOPIC).map(Destination::name)
        .toArray(String[]::new);
    return session.preparedQuery(sql.selectBatch()).execute(Tuple.of(batchSize, queues, topics)).compose(rows -> {
      List<OutboxRow> read = new ArrayList<>();
      for (Row r : rows) {
        read.add(new OutboxRow(r.getLong(0), r.getString(1), r.getString(2), r.getString(3), r.getString(4),
            r.getInteger(5), r.getString(6), r.getString(7)));
      }
      if (read.isEmpty()) {
        return Future.succeededFuture(new Done(new RoundOutcome(RoundPlan.of(read)), 0));
      }
      return sender.send(RoundPlan.of(read), epoch).compose(outcome -> settle(session, outcome)
          .map(settled -> new Done(outcome, read.size())));
    });
  }

  /** Moves the dead rows, then deletes every row that left. */
  private Future<Void> settle(SqlConnection session, RoundOutcome outcome) {
    Future<?> moved = Future.succeededFuture();
    if (!outcome.dead().isEmpty()) {
      Long[] ids = outcome.dead().stream().map(DeadRow::id).toArray(Long[]::new);
      String[] codes = outcome.dead().stream().map(DeadRow::errorCode).toArray(String[]::new);
      String[] messages = outcome.dead().stream().map(DeadRow::errorMessage).toArray(String[]::new);
      moved = session.preparedQuery(sql.moveToDead()).execute(Tuple.of(ids, codes, messages));
    }
    List<Long> leaving = outcome.leaving();
    if (leaving.isEmpty()) {
      return moved.mapEmpty();
    }
    return moved.compose(ignored -> session.preparedQuery(sql.delete())
        .execute(Tuple.of((Object) leaving.toArray(Long[]::new)))).mapEmpty();
  }

  /** A rollback's own failure (the session is gone) changes nothing: the server rolls back then too. */
  private static Future<Void> rollback(Transaction tx) {
    return tx.rollback().recover(ignored -> Future.succeededFuture());
  }
}
