package dev.sluice.cluster;

import io.vertx.core.buffer.Buffer;
import java.util.Map;

/** The leaf types a record component may have. Boxed types are nullable; primitives never are. */
enum Scalar implements ValueCodec {
  STRING("String") {
    @Override
    public void write(Buffer out, Object value) {
      WireWriter.string(out, (String) value);
    }

    @Override
    public Object read(WireReader in) {
      return in.readString();
    }
  },
  BYTES("bytes") {
    @Override
    public void write(Buffer out, Object value) {
      WireWriter.bytes(out, (byte[]) value);
    }

    @Override
    public Object read(WireReader in) {
      return in.readBytes();
    }
  },
  BOOLEAN("boolean") {
    @Override
    public void write(Buffer out, Object value) {
      out.appendByte((byte) ((Boolean) value ? 1 : 0));
    }

    @Override
    public Object read(WireReader in) {
      return in.readPresence();
    }
  },
  INT("int") {
    @Override
    public void write(Buffer out, Object value) {
      WireWriter.zigzag(out, (int) (Integer) value);
    }

    @Override
    public Object read(WireReader in) {
      return in.readZigzagInt();
    }
  },
  LONG("long") {
    @Override
    public void write(Buffer out, Object value) {
      WireWriter.zigzag(out, (long) (Long) value);
    }

    @Override
    public Object read(WireReader in) {
      return in.readZigzagLong();
    }
  },
  /** One byte: 0 null, 1 false, 2 true. */
  BOXED_BOOLEAN("Boolean") {
    @Override
    public void write(Buffer out, Object value) {
      out.appendByte((byte) (value == null ? 0 : (Boolean) value ? 2 : 1));
    }

    @Override
    public Object read(WireReader in) {
      byte b = in.readByte();
      if (b < 0 || b > 2) {
        throw new FrameRefused("a Boolean byte of " + b);
      }
      return b == 0 ? null : b == 2;
    }
  },
  BOXED_INT("Integer") {
    @Override
    public void write(Buffer out, Object value) {
      WireWriter.presence(out, value);
      if (value != null) {
        INT.write(out, value);
      }
    }

    @Override
    public Object read(WireReader in) {
      return in.readPresence() ? INT.read(in) : null;
    }
  },
  BOXED_LONG("Long") {
    @Override
    public void write(Buffer out, Object value) {
      WireWriter.presence(out, value);
      if (value != null) {
        LONG.write(out, value);
      }
    }

    @Override
    public Object read(WireReader in) {
      return in.readPresence() ? LONG.read(in) : null;
    }
  };

  private static final Map<Class<?>, Scalar> BY_TYPE = Map.of(
      String.class, STRING, byte[].class, BYTES, boolean.class, BOOLEAN, int.class, INT,
      long.class, LONG, Boolean.class, BOXED_BOOLEAN, Integer.class, BOXED_INT, Long.class, BOXED_LONG);

  private final String schema;

  Scalar(String schema) {
    this.schema = schema;
  }

  /** The scalar for a declared type, or null when it is not one. */
  static Scalar of(Class<?> type) {
    return BY_TYPE.get(type);
  }

  @Override
  public String schema() {
    return schema;
  }
}
