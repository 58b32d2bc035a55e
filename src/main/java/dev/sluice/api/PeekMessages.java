package dev.sluice.api;

import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The console's peek (design/console.md §2.5): a read of a queue's resident messages, oldest first,
 * that changes nothing (no receive, no visibility change, no receive count, no receipt handle). Not
 * an SQS action: no wire protocol of SQS reaches it, only the console's messages routes.
 */
public final class PeekMessages {
  private PeekMessages() {}

  /**
   * A page of messages ({@code offset}, {@code maxMessages}, {@code previewBytes}; null for the
   * defaults of {@link Limits}), or, with {@code messageKey}, the one message it names with its
   * whole body (then the paging members are ignored).
   */
  public record Request(String queueUrl, Integer offset, Integer maxMessages, Integer previewBytes,
      String messageKey) {}

  /** Where a browsable message is in its life: a pending, paged-out or gone one is never peeked. */
  public enum PeekedState { READY, DELAYED, IN_FLIGHT }

  /**
   * A message attribute with its value cut at {@link Limits#PEEK_ATTRIBUTE_VALUE_BYTES}: a string
   * on a character boundary, binary bytes as they are. {@code bytes} is the whole value's length.
   */
  public record PeekedAttribute(String dataType, String stringValue, byte[] binaryValue, int bytes,
      boolean truncated) {

    @Override
    public boolean equals(Object o) {
      return o instanceof PeekedAttribute a && Objects.equals(dataType, a.dataType)
          && Objects.equals(stringValue, a.stringValue) && Arrays.equals(binaryValue, a.binaryValue)
          && bytes == a.bytes && truncated == a.truncated;
    }

    @Override
    public int hashCode() {
      return Objects.hash(dataType, stringValue, bytes, truncated) * 31 + Arrays.hashCode(binaryValue);
    }

    @Override
    public String toString() {
      return "PeekedAttribute[dataType=" + dataType + ", stringValue=" + stringValue + ", binaryValue="
          + (binaryValue == null ? null : Base64.getEncoder().encodeToString(binaryValue)) + ", bytes=" + bytes
          + ", truncated=" + truncated + "]";
    }
  }

  /**
   * One message as the console shows it. {@code key} names it within its queue (opaque, URL-safe);
   * {@code visibleAt} is when a delayed or in-flight one becomes visible, the time of the peek for
   * a ready one; {@code firstReceiveTimestamp} is null until it is first received; the FIFO members
   * are null on a standard queue, {@code sequenceNumber} formatted as ReceiveMessage gives it;
   * {@code body} is the first {@code previewBytes} of it, cut on a character boundary, and
   * {@code bodyBytes} its whole UTF-8 length; {@code attributes} is null without any.
   */
  public record Peeked(
      String key,
      String messageId,
      String md5OfBody,
      PeekedState state,
      long visibleAt,
      int receiveCount,
      Long firstReceiveTimestamp,
      long sentTimestamp,
      String groupId,
      String deduplicationId,
      String sequenceNumber,
      String deadLetterSourceArn,
      String senderId,
      String traceHeader,
      String body,
      int bodyBytes,
      boolean bodyTruncated,
      Map<String, PeekedAttribute> attributes) {}

  /**
   * The page of messages (or the one asked for by key); {@code resident}: how many browsable
   * messages the queue holds in memory; {@code durableOnly}: in paged mode, how many more are held
   * only in PostgreSQL (0 otherwise); {@code truncated}: the page stopped early because its
   * previews reached {@link Limits#PEEK_ANSWER_PREVIEW_BYTES}.
   */
  public record Response(List<Peeked> messages, long resident, long durableOnly, boolean truncated) {}
}
