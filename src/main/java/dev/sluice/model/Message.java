package dev.sluice.model;

import dev.sluice.api.MessageAttributeValue;
import java.util.HexFormat;
import java.util.Map;
import java.util.UUID;

/**
 * Owned by its queue's {@link MessageStore}, on the shard event loop that owns the queue: its
 * delivery state changes through its own methods, its list links through {@link MessageList}.
 *
 * <p>One stored message. The immutable part is what was sent; the mutable part is its delivery
 * state. Its timing (delay, visibility) lives in the shard's {@link DueTimeIndex}, and
 * {@link #prev}/{@link #next} link it into its queue's ready list.
 */
public final class Message extends Timed {
  final long key;
  /** The MessageId, a version-4 UUID kept as its two halves and formatted when asked. */
  private final long idHigh;
  private final long idLow;
  final String body;
  /** MD5 of the body, kept as 16 bytes in two longs and formatted as hex when asked. */
  private final long md5High;
  private final long md5Low;
  /** User attributes sorted by name, or null. */
  final Map<String, MessageAttributeValue> attributes;
  final String md5OfAttributes;
  final String traceHeader;
  final String senderId;
  final long sentAtMillis;
  final String groupId;
  final String deduplicationId;
  /** FIFO only: strictly increasing per queue (0 on standard queues); see {@link SequenceNumbers}. */
  final long sequenceNumber;
  /** The queue a redrive policy moved this message from (its ARN), or null. */
  final String deadLetterSourceArn;
  private static final HexFormat HEX = HexFormat.of();

  /** Bytes charged against the memory budget while the message is held. */
  final int heldBytes;
  /**
   * Durable mode: the row this message was moved from (queue generation and key; 0 when none),
   * deleted in the same write as this message's own row, so a move is never half written.
   */
  private long originQueueId;
  private long originKey;

  private MessageStore owner;
  private MessageState state = MessageState.GONE;
  private int receiveCount;
  private long firstReceiveAtMillis;
  /** Durability commit: the delay a pending message starts once its write has committed. */
  private int pendingDelaySeconds;
  /** When the current receive started: ChangeMessageVisibility may not pass 12 h after it. */
  private long receivedAtMillis;
  /** Counts receives; a receipt handle names the one it came from. */
  private int receiptSequence;
  /** FIFO: when the message last became visible; a group is served in the order of its head's stamp. */
  private long readyStamp;
  /** Links in the queue's ready list (or a FIFO group's list), set by that {@link MessageList}. */
  Message prev;
  Message next;
  /** Moved in with its original sent time, so it sits in the queue's second retention list. */
  boolean keptSentTime;
  /** How it entered this queue (durable rows keep it). */
  private Arrival arrival = Arrival.SENT;
  /**
   * When it first became (or becomes) visible in this queue: a standard queue delivers in that
   * order, and durable mode orders its rows by it.
   */
  private long firstVisibleAtMillis;
  /**
   * Paged mode: a resident message never received in this queue, counted against its head window
   * until it is first taken (received or moved) or leaves.
   */
  boolean inWindow;
  /** Its row's write has committed (told by the durable store; paged mode needs to know). */
  boolean rowWritten;
  /**
   * Its row's write failed for good while it stayed resident (written behind): it has no row, so it
   * must never leave memory for the durable store.
   */
  boolean rowLost;
  /** Links in the queue's send order, for retention, set by that {@link MessageList}. */
  Message sentPrev;
  Message sentNext;

  Message(long key, long randomHigh, long randomLow, String body, long md5High, long md5Low,
      Map<String, MessageAttributeValue> attributes, String md5OfAttributes, String traceHeader, String senderId,
      long sentAtMillis, String groupId, String deduplicationId, long sequenceNumber, int heldBytes) {
    this.key = key;
    this.idHigh = (randomHigh & 0xffffffffffff0fffL) | 0x0000000000004000L;
    this.idLow = (randomLow & 0x3fffffffffffffffL) | 0x8000000000000000L;
    this.body = body;
    this.md5High = md5High;
    this.md5Low = md5Low;
    this.attributes = attributes;
    this.md5OfAttributes = md5OfAttributes;
    this.traceHeader = traceHeader;
    this.senderId = senderId;
    this.sentAtMillis = sentAtMillis;
    this.groupId = groupId;
    this.deduplicationId = deduplicationId;
    this.sequenceNumber = sequenceNumber;
    this.deadLetterSourceArn = null;
    this.heldBytes = heldBytes;
  }

  /** A message restored from the durable store, with the redrive origin it had. */
  Message(long key, long idHigh, long idLow, String body, long md5High, long md5Low,
      Map<String, MessageAttributeValue> attributes, String md5OfAttributes, String traceHeader, String senderId,
      long sentAtMillis, String groupId, String deduplicationId, long sequenceNumber, String deadLetterSourceArn,
      int heldBytes) {
    this.key = key;
    this.idHigh = idHigh;
    this.idLow = idLow;
    this.body = body;
    this.md5High = md5High;
    this.md5Low = md5Low;
    this.attributes = attributes;
    this.md5OfAttributes = md5OfAttributes;
    this.traceHeader = traceHeader;
    this.senderId = senderId;
    this.sentAtMillis = sentAtMillis;
    this.groupId = groupId;
    this.deduplicationId = deduplicationId;
    this.sequenceNumber = sequenceNumber;
    this.deadLetterSourceArn = deadLetterSourceArn;
    this.heldBytes = heldBytes;
  }

  /**
   * The same message moved to a dead-letter queue by a redrive policy (the SQS dead-letter queues guide): it keeps
   * its id, content, sent time and receive history, takes the new queue's key and sequence, and
   * remembers where it came from.
   */
  Message(Message from, long key, String deduplicationId, long sequenceNumber, String deadLetterSourceArn) {
    this(key, from.idHigh, from.idLow, from.body, from.md5High, from.md5Low, from.attributes, from.md5OfAttributes,
        from.traceHeader, from.senderId, from.sentAtMillis, from.groupId, deduplicationId, sequenceNumber,
        deadLetterSourceArn, from.heldBytes);
    this.receiveCount = from.receiveCount;
    this.firstReceiveAtMillis = from.firstReceiveAtMillis;
    this.originQueueId = from.originQueueId;
    this.originKey = from.originKey;
  }

  /**
   * The same content as a new message, as a message move task delivers it (AWS API reference: StartMessageMoveTask): a
   * new MessageId, sent now, never received.
   */
  Message(Message from, long key, long randomHigh, long randomLow, long nowMillis, String deduplicationId,
      long sequenceNumber) {
    this(key, randomHigh, randomLow, from.body, from.md5High, from.md5Low, from.attributes, from.md5OfAttributes,
        from.traceHeader, from.senderId, nowMillis, from.groupId, deduplicationId, sequenceNumber, from.heldBytes);
    this.originQueueId = from.originQueueId;
    this.originKey = from.originKey;
  }

  public String messageId() {
    return new UUID(idHigh, idLow).toString();
  }

  MessageStore owner() {
    return owner;
  }

  void ownedBy(MessageStore store) {
    owner = store;
  }

  void enter(MessageState next) {
    state = next;
  }

  /** Durability commit: it waits for its write, then starts a delay of {@code delaySeconds}. */
  void pend(int delaySeconds) {
    state = MessageState.PENDING;
    pendingDelaySeconds = delaySeconds;
  }

  int pendingDelaySeconds() {
    return pendingDelaySeconds;
  }

  /** A receive took it: counted, with a new receipt, its visibility counted from now. */
  void received(long nowMillis) {
    receiveCount++;
    if (receiveCount == 1) {
      firstReceiveAtMillis = nowMillis;
    }
    receiptSequence++;
    receivedAtMillis = nowMillis;
  }

  /** Its receive history as the durable store kept it. */
  void restoreHistory(int receiveCount, long firstReceiveAtMillis, int receiptSequence, long receivedAtMillis) {
    this.receiveCount = receiveCount;
    this.firstReceiveAtMillis = firstReceiveAtMillis;
    this.receiptSequence = receiptSequence;
    this.receivedAtMillis = receivedAtMillis;
  }

  long receivedAtMillis() {
    return receivedAtMillis;
  }

  /** Its row is {@code key} of the queue with generation {@code queueId}, on another node: a transfer's origin. */
  void transferredFrom(long queueId, long key) {
    originQueueId = queueId;
    originKey = key;
  }

  /** It leaves the queue with generation {@code queueId} for another: see {@link #originQueueId()}. */
  void movingFrom(long queueId) {
    originQueueId = queueId;
    originKey = key;
  }

  long readyStamp() {
    return readyStamp;
  }

  void stamp(long readyStamp) {
    this.readyStamp = readyStamp;
  }

  // ---- read by the durable store ------------------------------------------------------------

  /** The queue id of the row this message was moved from, or 0; see {@link #originWritten}. */
  /** Sets how it entered this queue and when it first becomes visible there. */
  void arrived(Arrival how, long firstVisibleAtMillis) {
    this.arrival = how;
    this.firstVisibleAtMillis = firstVisibleAtMillis;
  }

  public Arrival arrival() {
    return arrival;
  }

  public long firstVisibleAtMillis() {
    return firstVisibleAtMillis;
  }

  public long originQueueId() {
    return originQueueId;
  }

  public long originKey() {
    return originKey;
  }

  /** Forgets the origin once its delete has been written with this message's row. */
  public void originWritten() {
    originQueueId = 0;
    originKey = 0;
  }

  /** The key receipt handles name, unique within its queue. */
  public long key() {
    return key;
  }

  public UUID messageUuid() {
    return new UUID(idHigh, idLow);
  }

  public String body() {
    return body;
  }

  /** User attributes sorted by name, or null. */
  public Map<String, MessageAttributeValue> attributes() {
    return attributes;
  }

  public String traceHeader() {
    return traceHeader;
  }

  public String senderId() {
    return senderId;
  }

  public long sentAtMillis() {
    return sentAtMillis;
  }

  public String groupId() {
    return groupId;
  }

  public String deduplicationId() {
    return deduplicationId;
  }

  public long sequenceNumber() {
    return sequenceNumber;
  }

  public MessageState state() {
    return state;
  }

  /** When it next becomes visible (end of delay or visibility), or 0 when it is visible now. */
  public long visibleAtMillis() {
    // An in-flight message not (or no longer) scheduled is on its way back to visible: a receive
    // with VisibilityTimeout 0 logs its change before returning it.
    return (state == MessageState.DELAYED || state == MessageState.IN_FLIGHT) && isScheduled() ? dueAtMillis()
        : state == MessageState.PENDING ? sentAtMillis + pendingDelaySeconds * 1000L
        // never received, its row says when it first becomes visible (0: at once)
        : state == MessageState.PAGED_OUT && firstVisibleAtMillis > sentAtMillis ? firstVisibleAtMillis : 0;
  }

  public int receiveCount() {
    return receiveCount;
  }

  public long firstReceiveAtMillis() {
    return firstReceiveAtMillis;
  }

  public int receiptSequence() {
    return receiptSequence;
  }

  /** The ARN of the queue a redrive policy moved this message from, or null. */
  public String deadLetterSourceArn() {
    return deadLetterSourceArn;
  }

  public String md5OfBody() {
    return HEX.toHexDigits(md5High) + HEX.toHexDigits(md5Low);
  }

  @Override
  public void onDue(long nowMillis) {
    owner.onMessageDue(this, nowMillis);
  }
}
