package dev.sluice.model;

import dev.sluice.api.MessageAttributeValue;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import java.util.UUID;

/**
 * Owned by its queue's {@link MessageStore}, on the shard event loop that owns the queue: its
 * delivery state changes through its own methods, its list links through {@link MessageList}.
 *
 * <p>One stored message. The immutable part is what was sent: its identity and digests here, its
 * content (body, attributes and the other ids) as one record in its shard's {@link ContentSlab}
 * while it is resident, or as travelling content between queues (design/tails.md §2.4). The
 * mutable part is its delivery state. Its timing (delay, visibility) lives in the shard's {@link DueTimeIndex}, and
 * {@link #prev}/{@link #next} link it into its queue's ready list.
 */
public final class Message extends Timed implements ContentSlab.Owner {
  final long key;
  /** The MessageId, a version-4 UUID kept as its two halves and formatted when asked. */
  private final long idHigh;
  private final long idLow;
  /** MD5 of the body, kept as 16 bytes in two longs and formatted as hex when asked. */
  private final long md5High;
  private final long md5Low;
  final long sentAtMillis;
  /**
   * FIFO: the group id, or null; kept here as well as in the record, since the group order keys
   * its groups by it on every step: the one string of its group once it has a place there
   * ({@link GroupOrder}, design/tails.md §2.4).
   */
  String groupId;
  /** FIFO only: strictly increasing per queue (0 on standard queues); see {@link SequenceNumbers}. */
  final long sequenceNumber;
  private static final HexFormat HEX = HexFormat.of();

  /** Bytes charged against the memory budget while the message is held: its record's and the overhead. */
  final int heldBytes;
  /**
   * Its content's record in its shard's {@link ContentSlab} (its owner's), while it is resident;
   * else {@link ContentSlab#NONE}. Never leaves the model (design/tails.md §5 R4).
   */
  long handle = ContentSlab.NONE;
  /**
   * Its content's payload ({@link PackedContent#pack()}) while it has no record but is still needed:
   * on its way to another queue, shard or node (travelling content), or spilled until its row is
   * logged. Null otherwise; never changed once set, so another event loop may read it.
   */
  byte[] travelling;
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

  /** A message with this MessageId (its two halves) and body MD5; its content is written by its store. */
  Message(long key, long idHigh, long idLow, long md5High, long md5Low, long sentAtMillis, String groupId,
      long sequenceNumber, int heldBytes) {
    this.key = key;
    this.idHigh = idHigh;
    this.idLow = idLow;
    this.md5High = md5High;
    this.md5Low = md5Low;
    this.sentAtMillis = sentAtMillis;
    this.groupId = groupId;
    this.sequenceNumber = sequenceNumber;
    this.heldBytes = heldBytes;
  }

  /** A new message, its MessageId a version-4 UUID made of two random longs. */
  static Message fresh(long key, long randomHigh, long randomLow, long md5High, long md5Low, long sentAtMillis,
      String groupId, long sequenceNumber, int heldBytes) {
    return new Message(key, (randomHigh & 0xffffffffffff0fffL) | 0x0000000000004000L,
        (randomLow & 0x3fffffffffffffffL) | 0x8000000000000000L, md5High, md5Low, sentAtMillis, groupId,
        sequenceNumber, heldBytes);
  }

  /**
   * The same message moved to a dead-letter queue by a redrive policy (the SQS dead-letter queues
   * guide), or handed back: it keeps its id, sent time and receive history, takes the new queue's
   * key and sequence; its content (with the deduplication id and source it has there) is written by
   * the new queue's store, and charged {@code heldBytes}.
   */
  Message(Message from, long key, long sequenceNumber, int heldBytes) {
    this(key, from.idHigh, from.idLow, from.md5High, from.md5Low, from.sentAtMillis, from.groupId, sequenceNumber,
        heldBytes);
    this.receiveCount = from.receiveCount;
    this.firstReceiveAtMillis = from.firstReceiveAtMillis;
    this.originQueueId = from.originQueueId;
    this.originKey = from.originKey;
  }

  /**
   * The same content as a new message, as a message move task delivers it (AWS API reference: StartMessageMoveTask): a
   * new MessageId, sent now, never received.
   */
  static Message redriven(Message from, long key, long randomHigh, long randomLow, long nowMillis,
      long sequenceNumber, int heldBytes) {
    Message m = fresh(key, randomHigh, randomLow, from.md5High, from.md5Low, nowMillis, from.groupId, sequenceNumber,
        heldBytes);
    m.originQueueId = from.originQueueId;
    m.originKey = from.originKey;
    return m;
  }

  /** Compaction moved its record. */
  @Override
  public void contentMoved(long newHandle) {
    handle = newHandle;
  }

  /**
   * What it was sent with, decoded from its record (on its shard's loop) or from its travelling
   * content. A copy: callers wanting several parts decode once.
   */
  public PackedContent content() {
    return travelling != null ? PackedContent.unpack(travelling, 0, travelling.length) : slab().read(handle);
  }

  /** Its content's format version 1 bytes, what its row's {@code content} column holds. */
  public byte[] encodedContent() {
    if (travelling == null) {
      return slab().copyEncoded(handle);
    }
    int n = PackedContent.encodedLength(travelling, 0, travelling.length);
    return n == travelling.length ? travelling : Arrays.copyOf(travelling, n); // never changed: shared
  }

  /** Its payload: the travelling content, or a copy of its record's. */
  byte[] payload() {
    return travelling != null ? travelling : slab().copy(handle);
  }

  /** The MD5 of its attributes as hex, or null without attributes: kept in the payload. */
  public String md5OfAttributes() {
    byte[] md5 = travelling != null ? PackedContent.attributesMd5(travelling, 0, travelling.length)
        : slab().attributesMd5(handle);
    return md5 == null ? null : HEX.formatHex(md5);
  }

  private ContentSlab slab() {
    if (handle == ContentSlab.NONE || owner == null) {
      throw new IllegalStateException("message " + key + " has no content here (" + state + ")");
    }
    return owner.slab();
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
    return content().body();
  }

  /** User attributes sorted by name, or null. */
  public Map<String, MessageAttributeValue> attributes() {
    return content().attributes();
  }

  public String traceHeader() {
    return content().traceHeader();
  }

  public String senderId() {
    return content().senderId();
  }

  public long sentAtMillis() {
    return sentAtMillis;
  }

  public String groupId() {
    return groupId;
  }

  public String deduplicationId() {
    return content().deduplicationId();
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
    return (state == MessageState.DELAYED || state == MessageState.IN_FLIGHT || state == MessageState.BACKOFF)
        && isScheduled() ? dueAtMillis()
        : state == MessageState.PENDING ? sentAtMillis + pendingDelaySeconds * 1000L
        // never received, its row says when it first becomes visible (0: at once)
        : state == MessageState.PAGED_OUT && firstVisibleAtMillis > sentAtMillis ? firstVisibleAtMillis : 0;
  }

  /** Whether it is waiting out its queue's redelivery backoff: its row says so, so a restart keeps the wait. */
  public boolean inBackoff() {
    return state == MessageState.BACKOFF;
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
    return content().deadLetterSourceArn();
  }

  public String md5OfBody() {
    return HEX.toHexDigits(md5High) + HEX.toHexDigits(md5Low);
  }

  @Override
  public void onDue(long nowMillis) {
    owner.onMessageDue(this, nowMillis);
  }
}
