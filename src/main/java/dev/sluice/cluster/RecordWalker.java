package dev.sluice.cluster;

import io.vertx.core.buffer.Buffer;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.StringJoiner;
import java.util.function.Function;

/**
 * Writes and reads one record type's components in declaration order, through its accessors and
 * canonical constructor as method handles found once. Immutable, so any thread may use it. As a
 * component of another record it is nullable (a presence byte); as a frame's body its nullness is
 * the type id's business ({@link RecordCodec}).
 */
final class RecordWalker implements ValueCodec {
  private final Class<?> type;
  private final MethodHandle[] accessors;
  private final ValueCodec[] components;
  private final MethodHandle constructor;
  private final String schema;

  /** Fails, naming the component, if any component's type cannot be carried. */
  RecordWalker(Class<?> type, Function<Class<?>, RecordWalker> nested) {
    if (!type.isRecord()) {
      throw new IllegalArgumentException(type.getName() + " is not a record");
    }
    this.type = type;
    RecordComponent[] parts = type.getRecordComponents();
    accessors = new MethodHandle[parts.length];
    components = new ValueCodec[parts.length];
    StringJoiner schema = new StringJoiner(",", nameOf(type) + "(", ")");
    MethodHandles.Lookup lookup = MethodHandles.lookup();
    try {
      for (int i = 0; i < parts.length; i++) {
        components[i] = ValueCodecs.of(parts[i].getGenericType(),
            nameOf(type) + "." + parts[i].getName(), nested);
        accessors[i] = lookup.unreflect(parts[i].getAccessor())
            .asType(MethodType.methodType(Object.class, Object.class));
        schema.add(parts[i].getName() + ":" + components[i].schema());
      }
      Class<?>[] raw = Arrays.stream(parts).map(RecordComponent::getType).toArray(Class<?>[]::new);
      constructor = lookup.unreflectConstructor(type.getDeclaredConstructor(raw))
          .asType(MethodType.genericMethodType(parts.length))
          .asSpreader(Object[].class, parts.length);
    } catch (IllegalAccessException | NoSuchMethodException e) {
      throw new IllegalArgumentException(
          type.getName() + " must be public, with public accessors and canonical constructor", e);
    }
    this.schema = schema.toString();
  }

  /** A type's name without its package, nesting kept ({@code SendMessage$Request}). */
  static String nameOf(Class<?> type) {
    return type.getName().substring(type.getPackageName().length() + 1);
  }

  Class<?> type() {
    return type;
  }

  void writeComponents(Buffer out, Object record) {
    for (int i = 0; i < components.length; i++) {
      components[i].write(out, get(i, record));
    }
  }

  Object readComponents(WireReader in) {
    Object[] values = new Object[components.length];
    for (int i = 0; i < components.length; i++) {
      values[i] = components[i].read(in);
    }
    try {
      return constructor.invokeExact(values);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException("constructing " + nameOf(type), t);
    }
  }

  @Override
  public void write(Buffer out, Object value) {
    WireWriter.presence(out, value);
    if (value != null) {
      writeComponents(out, value);
    }
  }

  @Override
  public Object read(WireReader in) {
    return in.readPresence() ? readComponents(in) : null;
  }

  @Override
  public String schema() {
    return schema;
  }

  private Object get(int i, Object record) {
    try {
      return accessors[i].invokeExact(record);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException("reading " + nameOf(type) + "'s components", t);
    }
  }
}
