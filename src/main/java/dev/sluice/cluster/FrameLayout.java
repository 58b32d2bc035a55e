package dev.sluice.cluster;

import dev.sluice.api.ErrorCode;
import io.vertx.core.buffer.Buffer;
import java.util.function.Supplier;

/**
 * The fields of each kind of {@link Frame}, in order, between the version byte and the MAC that
 * {@link ForwardCodec} puts around them: the kind, the sender, its sequence number and the target,
 * then the kind's own fields, the body last.
 */
final class FrameLayout {
  private static final byte REQUEST = 1;
  private static final byte REPLY = 2;
  private static final byte FAILURE = 3;
  private static final byte NOT_HERE = 4;
  private static final byte CANCEL = 5;
  private static final byte RELEASED = 6;
  private static final byte OWNER_HINT = 7;
  private static final EnumCodec ERROR_CODES = new EnumCodec(ErrorCode.class);

  private FrameLayout() {}

  static void write(Buffer out, Frame frame, RecordCodec records) {
    if (frame instanceof Frame.Request r) {
      writeHeader(out, REQUEST, frame);
      WireWriter.zigzag(out, r.requestId());
      WireWriter.zigzag(out, r.shard());
      WireWriter.zigzag(out, r.deadlineLeftMillis());
      WireWriter.zigzag(out, r.actionId());
      writeCaller(out, r.caller());
      records.write(out, r.body());
    } else if (frame instanceof Frame.Reply r) {
      writeHeader(out, REPLY, frame);
      WireWriter.zigzag(out, r.requestId());
      WireWriter.zigzag(out, r.shard());
      WireWriter.zigzag(out, r.epoch());
      records.write(out, r.body());
    } else if (frame instanceof Frame.Failure f) {
      writeHeader(out, FAILURE, frame);
      WireWriter.zigzag(out, f.requestId());
      WireWriter.zigzag(out, f.shard());
      WireWriter.zigzag(out, f.epoch());
      ERROR_CODES.write(out, f.code());
      WireWriter.string(out, f.message());
      WireWriter.string(out, f.queryMessage());
    } else if (frame instanceof Frame.NotHere n) {
      writeHeader(out, NOT_HERE, frame);
      WireWriter.zigzag(out, n.requestId());
      WireWriter.zigzag(out, n.shard());
      WireWriter.string(out, n.ownerHint());
    } else if (frame instanceof Frame.Cancel c) {
      writeHeader(out, CANCEL, frame);
      WireWriter.zigzag(out, c.requestId());
    } else if (frame instanceof Frame.Released r) {
      writeHeader(out, RELEASED, frame);
      WireWriter.zigzag(out, r.shard());
      WireWriter.zigzag(out, r.epoch());
    } else {
      Frame.OwnerHint h = (Frame.OwnerHint) frame;
      writeHeader(out, OWNER_HINT, frame);
      WireWriter.zigzag(out, h.shard());
      WireWriter.string(out, h.owner());
      WireWriter.zigzag(out, h.epoch());
    }
  }

  static Frame read(WireReader in, RecordCodec records) {
    byte kind = in.readByte();
    String sender = in.readString();
    long sequence = in.readZigzagLong();
    String target = in.readString();
    switch (kind) {
      case REQUEST: {
        long requestId = in.readZigzagLong();
        int shard = in.readZigzagInt();
        long deadlineLeftMillis = in.readZigzagLong();
        int actionId = in.readZigzagInt();
        ForwardedCaller caller = readCaller(in);
        Record body = withHeader(() -> records.read(in), sender, sequence, requestId);
        return new Frame.Request(sender, sequence, target, requestId, shard, deadlineLeftMillis,
            actionId, caller, body);
      }
      case REPLY: {
        long requestId = in.readZigzagLong();
        int shard = in.readZigzagInt();
        long epoch = in.readZigzagLong();
        Record body = withHeader(() -> records.read(in), sender, sequence, requestId);
        return new Frame.Reply(sender, sequence, target, requestId, shard, epoch, body);
      }
      case FAILURE: {
        long requestId = in.readZigzagLong();
        int shard = in.readZigzagInt();
        long epoch = in.readZigzagLong();
        ErrorCode code = withHeader(() -> (ErrorCode) ERROR_CODES.read(in), sender, sequence, requestId);
        return new Frame.Failure(sender, sequence, target, requestId, shard, epoch, code,
            in.readString(), in.readString());
      }
      case NOT_HERE:
        return new Frame.NotHere(sender, sequence, target, in.readZigzagLong(), in.readZigzagInt(),
            in.readString());
      case CANCEL:
        return new Frame.Cancel(sender, sequence, target, in.readZigzagLong());
      case RELEASED:
        return new Frame.Released(sender, sequence, target, in.readZigzagInt(), in.readZigzagLong());
      case OWNER_HINT:
        return new Frame.OwnerHint(sender, sequence, target, in.readZigzagInt(), in.readString(),
            in.readZigzagLong());
      default:
        throw new FrameRefused("an unknown frame kind " + kind);
    }
  }

  private static void writeHeader(Buffer out, byte kind, Frame frame) {
    out.appendByte(kind);
    WireWriter.string(out, frame.sender());
    WireWriter.zigzag(out, frame.sequence());
    WireWriter.string(out, frame.target());
  }

  /** A body this node cannot read is answered NotSupported, which needs the frame's header. */
  private static <T> T withHeader(Supplier<T> read, String sender, long sequence, long requestId) {
    try {
      return read.get();
    } catch (SchemaMismatch e) {
      throw e.in(sender, sequence, requestId);
    }
  }

  private static void writeCaller(Buffer out, ForwardedCaller c) {
    for (String value : new String[] {c.requestId(), c.baseUrl(), c.senderId(), c.traceHeader(),
        c.accountId(), c.region(), c.accessKeyId()}) {
      WireWriter.string(out, value);
    }
  }

  private static ForwardedCaller readCaller(WireReader in) {
    return new ForwardedCaller(in.readString(), in.readString(), in.readString(), in.readString(),
        in.readString(), in.readString(), in.readString());
  }
}
