package dev.sluice.model;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.Limits;
import dev.sluice.api.PeekMessages;
import dev.sluice.api.PeekMessages.Peeked;
import dev.sluice.api.PeekMessages.PeekedState;
import dev.sluice.api.SqsException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Called on the shard event loop that owns the queue, inside one call; holds nothing between calls.
 *
 * <p>The console's peek of one queue (design/console.md §2.5): its resident messages oldest first
 * (the merge of {@link RetentionOrder}'s two lists), each built from its fields and a preview of its
 * record ({@link ContentSlab#preview}). It only reads: no state, timer, receive count, receipt
 * sequence, counter, change log or slab record changes, so nothing a client or the durable store
 * sees differs with or without it. Pending messages (sent, their write not yet committed) are
 * skipped, as GetQueueAttributes does not count them; paged-out and gone ones are in no list.
 */
final class MessagePeek {
  private MessagePeek() {}

  /** A page of messages, or with a message key the one it names with its whole body (MessageNotFound if gone). */
  static PeekMessages.Response answer(MessageStore store, PeekMessages.Request r, long nowMillis) {
    long durableOnly = store.backlog().visibleRows(nowMillis) + store.backlog().delayedRows(nowMillis);
    long resident = store.visibleCount(nowMillis) + store.inflightCount() + store.delayedCount(nowMillis)
        - durableOnly;
    if (r.messageKey() != null) {
      Peeked one = one(store, r.messageKey(), nowMillis);
      return new PeekMessages.Response(List.of(one), resident, durableOnly, false);
    }
    int offset = within(r.offset(), 0, 0, Limits.PEEK_WINDOW_MESSAGES - 1, "Offset");
    int max = within(r.maxMessages(), Limits.PEEK_MAX_MESSAGES_DEFAULT, 1, Limits.PEEK_MAX_MESSAGES_MAX, "MaxMessages");
    int previewBytes = within(r.previewBytes(), Limits.PEEK_PREVIEW_BYTES_DEFAULT, 0, Limits.PEEK_PREVIEW_BYTES_MAX,
        "PreviewBytes");
    if (offset + max > Limits.PEEK_WINDOW_MESSAGES) {
      throw SqsException.invalidValue(offset, "Offset",
          "Offset + MaxMessages must be at most " + Limits.PEEK_WINDOW_MESSAGES + ".");
    }
    Page page = new Page(store, offset, max, previewBytes, nowMillis);
    store.retention().walkOldestFirst(page);
    return new PeekMessages.Response(List.copyOf(page.messages), resident, durableOnly, page.truncated);
  }

  private static Peeked one(MessageStore store, String messageKey, long nowMillis) {
    Long key = PeekKeys.decode(store.metadata().generation(), messageKey);
    Message m = key == null ? null : store.find(key);
    if (m == null || !browsable(m)) {
      throw new SqsException(ErrorCode.MESSAGE_NOT_FOUND, "The message " + messageKey + " is not in the queue.");
    }
    return peeked(store, m, preview(store, m, Limits.MESSAGE_SIZE_MAX), nowMillis);
  }

  private static int within(Integer value, int absent, int min, int max, String parameter) {
    if (value == null) {
      return absent;
    }
    if (value < min || value > max) {
      throw SqsException.invalidValue(value, parameter, "It must be between " + min + " and " + max + ".");
    }
    return value;
  }

  static boolean browsable(Message m) {
    MessageState s = m.state();
    return s == MessageState.READY || s == MessageState.DELAYED || s == MessageState.IN_FLIGHT
        || s == MessageState.BACKOFF;
  }

  private static ContentPreview preview(MessageStore store, Message m, int previewBytes) {
    return store.slab().preview(m.handle, previewBytes, Limits.PEEK_ATTRIBUTE_VALUE_BYTES);
  }

  private static Peeked peeked(MessageStore store, Message m, ContentPreview p, long nowMillis) {
    PeekedState state = switch (m.state()) {
      case READY -> PeekedState.READY;
      case DELAYED -> PeekedState.DELAYED;
      case BACKOFF -> PeekedState.DELAYED; // counted as delayed too; visibleAt says until when
      case IN_FLIGHT -> PeekedState.IN_FLIGHT;
      default -> throw new IllegalStateException("not browsable: " + m.state());
    };
    long visibleAt = state == PeekedState.READY || m.visibleAtMillis() == 0 ? nowMillis : m.visibleAtMillis();
    boolean fifo = store.attributes().fifo();
    return new Peeked(PeekKeys.encode(store.metadata().generation(), m.key), m.messageId(), m.md5OfBody(), state,
        visibleAt, m.receiveCount(), m.receiveCount() > 0 ? m.firstReceiveAtMillis() : null, m.sentAtMillis,
        p.groupId(), p.deduplicationId(), fifo ? SequenceNumbers.format(m.sequenceNumber) : null,
        p.deadLetterSourceArn(), p.senderId(), p.traceHeader(), p.body(), p.bodyBytes(), p.bodyTruncated(),
        p.attributes());
  }

  /** One page's walk: skips {@code offset} browsable messages, then takes up to {@code max}. */
  private static final class Page implements Predicate<Message> {
    private final MessageStore store;
    private final int max;
    private final int previewBytes;
    private final long nowMillis;
    private final List<Peeked> messages = new ArrayList<>();
    private int toSkip;
    private long shownBytes;
    private boolean truncated;

    Page(MessageStore store, int offset, int max, int previewBytes, long nowMillis) {
      this.store = store;
      this.toSkip = offset;
      this.max = max;
      this.previewBytes = previewBytes;
      this.nowMillis = nowMillis;
    }

    @Override
    public boolean test(Message m) {
      if (!browsable(m)) {
        return true; // pending: walked past, beyond the 10,000 links only by the sends whose writes are in flight
      }
      if (toSkip > 0) {
        toSkip--;
        return true;
      }
      ContentPreview p = preview(store, m, previewBytes);
      // The first message is always shown (at most 64 KiB of body and 10 values of 256 bytes).
      if (!messages.isEmpty() && shownBytes + p.shownBytes() > Limits.PEEK_ANSWER_PREVIEW_BYTES) {
        truncated = true;
        return false;
      }
      shownBytes += p.shownBytes();
      messages.add(peeked(store, m, p, nowMillis));
      return messages.size() < max;
    }
  }
}
