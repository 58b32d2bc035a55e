package dev.sluice.cluster;

import io.vertx.core.buffer.Buffer;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The codec of a declared (generic) type, built when a record is registered: a type the codec
 * cannot carry fails there, naming the component, never in the middle of a request.
 */
final class ValueCodecs {
  private ValueCodecs() {}

  /**
   * @param where the component, as {@code Record.component}, for the error message
   * @param records the walker of a nested record type
   */
  static ValueCodec of(Type type, String where, Function<Class<?>, RecordWalker> records) {
    if (type instanceof Class<?> c) {
      Scalar scalar = Scalar.of(c);
      if (scalar != null) {
        return scalar;
      }
      if (c.isEnum()) {
        return new EnumCodec(c);
      }
      if (c.isRecord()) {
        return records.apply(c);
      }
    } else if (type instanceof ParameterizedType p) {
      Type[] args = p.getActualTypeArguments();
      if (p.getRawType() == List.class) {
        return new ListCodec(of(args[0], where + "'s elements", records));
      }
      if (p.getRawType() == Map.class && args[0] == String.class) {
        return new MapCodec(of(args[1], where + "'s values", records));
      }
    }
    throw new IllegalArgumentException("RecordCodec cannot encode " + where + " of type "
        + type.getTypeName() + ": a component must be a String, boolean, int, long, Boolean, Integer,"
        + " Long, byte[], an enum, a record, or a List<T> or Map<String, T> of these");
  }

  /** A size, then the elements; decoded as an {@link ArrayList}. */
  private static final class ListCodec implements ValueCodec {
    private final ValueCodec element;

    ListCodec(ValueCodec element) {
      this.element = element;
    }

    @Override
    public void write(Buffer out, Object value) {
      List<?> list = (List<?>) value;
      WireWriter.size(out, list == null ? -1 : list.size());
      if (list != null) {
        for (Object e : list) {
          element.write(out, e);
        }
      }
    }

    @Override
    public Object read(WireReader in) {
      int size = in.readSize();
      if (size < 0) {
        return null;
      }
      List<Object> list = new ArrayList<>(size);
      for (int i = 0; i < size; i++) {
        list.add(element.read(in));
      }
      return list;
    }

    @Override
    public String schema() {
      return "List<" + element.schema() + ">";
    }
  }

  /** A size, then key and value pairs in iteration order; decoded as a {@link LinkedHashMap}. */
  private static final class MapCodec implements ValueCodec {
    private final ValueCodec value;

    MapCodec(ValueCodec value) {
      this.value = value;
    }

    @Override
    public void write(Buffer out, Object v) {
      Map<?, ?> map = (Map<?, ?>) v;
      WireWriter.size(out, map == null ? -1 : map.size());
      if (map != null) {
        for (Map.Entry<?, ?> e : map.entrySet()) {
          WireWriter.string(out, (String) e.getKey());
          value.write(out, e.getValue());
        }
      }
    }

    @Override
    public Object read(WireReader in) {
      int size = in.readSize();
      if (size < 0) {
        return null;
      }
      Map<String, Object> map = new LinkedHashMap<>();
      for (int i = 0; i < size; i++) {
        map.put(in.readString(), value.read(in));
      }
      return map;
    }

    @Override
    public String schema() {
      return "Map<String," + value.schema() + ">";
    }
  }
}
