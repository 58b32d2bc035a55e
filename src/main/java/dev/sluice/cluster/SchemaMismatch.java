package dev.sluice.cluster;

/**
 * An authentic frame whose body this node cannot read because the sender's version of its record
 * differs (design R8): another schema hash, a type id or enum constant unknown here. The receiver
 * turns it into a NotSupported answer, so it carries what an answer needs: the sender, the frame's
 * sequence number and the request id (null, -1 and -1 while the body is read alone).
 */
public final class SchemaMismatch extends RuntimeException {
  private final String sender;
  private final long sequence;
  private final long requestId;

  public SchemaMismatch(String message) {
    this(message, null, -1, -1);
  }

  private SchemaMismatch(String message, String sender, long sequence, long requestId) {
    super(message, null, false, false);
    this.sender = sender;
    this.sequence = sequence;
    this.requestId = requestId;
  }

  /** The same mismatch, with the header of the frame it was found in. */
  SchemaMismatch in(String sender, long sequence, long requestId) {
    return new SchemaMismatch(getMessage(), sender, sequence, requestId);
  }

  public String sender() {
    return sender;
  }

  public long sequence() {
    return sequence;
  }

  public long requestId() {
    return requestId;
  }
}
