package dev.sluice.cluster;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.MessageCodec;

/**
 * The event-bus codec of every {@link Frame} (design page cluster.md, §2.8). On the wire: the
 * length of what follows (the event bus does not delimit a body), a version byte, the frame's
 * fields ({@link FrameLayout}) with its body through the {@link RecordCodec}, then an HMAC over
 * everything from the version byte on ({@link FrameMac}; a changed length moves the tag, which then
 * fails). Decoding reads the version and checks the MAC before anything else, so no field of an
 * unauthenticated frame is ever parsed; anything wrong is a {@link FrameRefused}, and a body of
 * another version's record a {@link SchemaMismatch}.
 *
 * <p>Anti-replay (member, sequence window, target) is the receiver's, after decoding, with
 * {@link FrameAuth} on its own thread, and not done here: this one stateless instance is called on
 * whatever thread writes or reads a message, and Vert.x decodes a received body once per consumer
 * copy of the message, so a window here would refuse the second copy as a replay.
 */
public final class ForwardCodec implements MessageCodec<Frame, Frame> {
  public static final String NAME = "sluice-forward";
  static final byte VERSION = 1;
  private static final int LENGTH_BYTES = 4;

  private final FrameMac mac;
  private final RecordCodec records;

  public ForwardCodec(byte[] secret, RecordCodec records) {
    this.mac = new FrameMac(secret);
    this.records = records;
  }

  @Override
  public void encodeToWire(Buffer buffer, Frame frame) {
    int lengthAt = buffer.length();
    buffer.appendInt(0);
    int start = buffer.length();
    buffer.appendByte(VERSION);
    FrameLayout.write(buffer, frame, records);
    mac.append(buffer, start);
    buffer.setInt(lengthAt, buffer.length() - start);
  }

  @Override
  public Frame decodeFromWire(int pos, Buffer buffer) {
    int available = buffer.length() - pos - LENGTH_BYTES;
    if (available < 1 + FrameMac.TAG_BYTES) {
      throw new FrameRefused("truncated: " + (buffer.length() - pos) + " bytes");
    }
    int length = buffer.getInt(pos);
    if (length < 1 + FrameMac.TAG_BYTES || length > available) {
      throw new FrameRefused("a frame length of " + length + " with " + available + " bytes");
    }
    int start = pos + LENGTH_BYTES;
    int tagAt = start + length - FrameMac.TAG_BYTES;
    byte version = buffer.getByte(start);
    if (version != VERSION) {
      throw new FrameRefused("frame version " + version + ", this node reads " + VERSION);
    }
    if (!mac.verify(buffer, start, tagAt)) {
      throw new FrameRefused("the MAC does not match: damaged, or another cluster secret");
    }
    WireReader in = new WireReader(buffer, start + 1, tagAt);
    Frame frame = FrameLayout.read(in, records);
    in.expectEnd();
    return frame;
  }

  /**
   * Local delivery passes the frame itself: nothing changes a frame once built. The cluster's Vert.x
   * instance only sends to other nodes, but a frame to a consumer of its own must arrive all the same.
   */
  @Override
  public Frame transform(Frame frame) {
    return frame;
  }

  @Override
  public String name() {
    return NAME;
  }

  /** A user codec, as Vert.x requires of every codec it does not ship. */
  @Override
  public byte systemCodecID() {
    return -1;
  }
}
