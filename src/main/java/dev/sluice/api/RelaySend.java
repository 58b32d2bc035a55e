package dev.sluice.api;

import java.util.List;
import java.util.Map;

/**
 * The outbox relay's sends (src/site/markdown/outbox.md): rows of an application's outbox table
 * become messages of one queue, each at most once. Not an SQS action: no wire protocol reaches it.
 * A row is named by its source (the outbox's name in the configuration) and its id there; the
 * queue keeps a receipt of every row it stored, written in the same commit as the message, so a
 * row sent again (the relay crashed before deleting it from the outbox) answers its first
 * message's id and stores nothing. The relay forgets the receipts once the rows are deleted.
 *
 * <p>Every call carries the relay's {@code epoch}, its fencing token: a number that grows with each
 * taking of the source's lease (the application database's transaction id when it was taken). A
 * queue refuses a call of an epoch below the highest it has seen of the source, so a relay that
 * lost its lease and whose send arrives late, after the new holder sent the row and forgot it, adds
 * no second message.
 */
public final class RelaySend {
  private RelaySend() {}

  /** Rows for the queue of {@code queueUrl}, each validated and sent as a SendMessage would be, in order. */
  public record Request(String queueUrl, String source, long epoch, List<Entry> entries) {}

  /**
   * Rows for the topic {@code topicArn}, each validated and published as a Publish would be, in
   * order; each of its queue subscribers keeps the row's receipt, so a row published again adds no
   * second copy to any queue (an HTTP subscriber may be notified again).
   */
  public record Publish(String topicArn, String source, long epoch, List<Entry> entries) {}

  /** A row of a source, as a publish's copies carry it to the queues that keep its receipt. */
  public record Row(String source, long epoch, long rowId) {}

  /** One outbox row: its id and the SendMessage it stands for (null members: not given). */
  public record Entry(long rowId, String messageBody, Integer delaySeconds,
      Map<String, MessageAttributeValue> messageAttributes, String messageGroupId, String messageDeduplicationId) {}

  /** One result per entry, in the entries' order. */
  public record Response(List<Result> results) {}

  /**
   * A row's fate: sent now ({@code messageId}, not {@code duplicate}), sent before ({@code duplicate},
   * the first message's id), or refused ({@code errorCode} and {@code errorMessage}; {@code senderFault}
   * when the row itself is at fault and sending it again cannot succeed).
   */
  public record Result(long rowId, String messageId, boolean duplicate, String errorCode, String errorMessage,
      boolean senderFault) {
    public boolean sent() {
      return errorCode == null;
    }
  }

  /** The rows have left the outbox: their receipts in the queue of {@code queueUrl} are not needed any more. */
  public record Forget(String queueUrl, String source, long epoch, List<Long> rowIds) {}

  /** The rows of {@code source} a queue holds receipts of (a relay reconciles them with its outbox). */
  public record Held(QueueKey queue, List<Long> rowIds) {}
}
