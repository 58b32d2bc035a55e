package dev.sluice.cluster;

import java.lang.reflect.Constructor;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random values of a record type, built from its components' generic types by reflection apart
 * from the codec's own: strings empty, null, ASCII, two- and three-byte UTF-8 and non-BMP (valid
 * code points only: a lone surrogate has no UTF-8 form, and the protocols never produce one);
 * nullables null; lists and maps null, empty or filled; numbers at their extremes and in between.
 */
final class RandomValues {
  private final Random random;

  RandomValues(Random random) {
    this.random = random;
  }

  Record record(Class<?> type) {
    RecordComponent[] parts = type.getRecordComponents();
    Object[] values = new Object[parts.length];
    for (int i = 0; i < parts.length; i++) {
      values[i] = value(parts[i].getGenericType());
    }
    try {
      Constructor<?> c = type.getDeclaredConstructor(
          Arrays.stream(parts).map(RecordComponent::getType).toArray(Class<?>[]::new));
      return (Record) c.newInstance(values);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  Object value(Type type) {
    if (type == int.class) {
      return anInt();
    } else if (type == long.class) {
      return aLong();
    } else if (type == boolean.class) {
      return random.nextBoolean();
    }
    if (random.nextInt(8) == 0) {
      return null;
    }
    if (type == String.class) {
      return string();
    } else if (type == Integer.class) {
      return anInt();
    } else if (type == Long.class) {
      return aLong();
    } else if (type == Boolean.class) {
      return random.nextBoolean();
    } else if (type == byte[].class) {
      byte[] b = new byte[random.nextInt(4) == 0 ? 0 : random.nextInt(300)];
      random.nextBytes(b);
      return b;
    } else if (type instanceof Class<?> c && c.isEnum()) {
      Object[] constants = c.getEnumConstants();
      return constants[random.nextInt(constants.length)];
    } else if (type instanceof Class<?> c && c.isRecord()) {
      return record(c);
    } else if (type instanceof ParameterizedType p && p.getRawType() == List.class) {
      List<Object> list = new ArrayList<>();
      for (int i = random.nextInt(4) == 0 ? 0 : random.nextInt(5); i > 0; i--) {
        list.add(value(p.getActualTypeArguments()[0]));
      }
      return list;
    } else if (type instanceof ParameterizedType p && p.getRawType() == Map.class) {
      Map<String, Object> map = new LinkedHashMap<>();
      for (int i = random.nextInt(4) == 0 ? 0 : random.nextInt(5); i > 0; i--) {
        map.put(string(), value(p.getActualTypeArguments()[1]));
      }
      return map;
    }
    throw new IllegalArgumentException("no random values of " + type.getTypeName());
  }

  String string() {
    int length = random.nextInt(5) == 0 ? 0 : random.nextInt(40);
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < length; i++) {
      switch (random.nextInt(4)) {
        case 0:
          s.append((char) (' ' + random.nextInt(95)));
          break;
        case 1:
          s.appendCodePoint(0x80 + random.nextInt(0x800 - 0x80));
          break;
        case 2:
          int bmp = 0x800 + random.nextInt(0x10000 - 0x800 - 0x800); // three bytes, no surrogates
          s.appendCodePoint(bmp < 0xD800 ? bmp : bmp + 0x800);
          break;
        default:
          s.appendCodePoint(0x10000 + random.nextInt(0x110000 - 0x10000));
      }
    }
    return s.toString();
  }

  private int anInt() {
    int[] edges = {0, -1, 1, Integer.MIN_VALUE, Integer.MAX_VALUE};
    return random.nextBoolean() ? edges[random.nextInt(edges.length)] : random.nextInt();
  }

  private long aLong() {
    long[] edges = {0, -1, 1, Long.MIN_VALUE, Long.MAX_VALUE, 1L << 40};
    return random.nextBoolean() ? edges[random.nextInt(edges.length)] : random.nextLong();
  }
}
