package dev.sluice.cluster;

import io.vertx.core.buffer.Buffer;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * An enum constant by its name, null allowed. By name rather than ordinal: reordering or inserting
 * constants in a later version would silently change what an ordinal means, whereas a name either
 * means the same constant or is unknown and refused. For the same reason the schema lists the
 * constants sorted, so reordering them changes nothing and adding or renaming one is detected.
 */
final class EnumCodec implements ValueCodec {
  private final Class<?> type;
  private final Map<String, Object> byName = new HashMap<>();
  private final String schema;

  EnumCodec(Class<?> type) {
    this.type = type;
    for (Object constant : type.getEnumConstants()) {
      byName.put(((Enum<?>) constant).name(), constant);
    }
    schema = "enum " + RecordWalker.nameOf(type)
        + byName.keySet().stream().sorted().collect(Collectors.joining(",", "{", "}"));
  }

  @Override
  public void write(Buffer out, Object value) {
    WireWriter.string(out, value == null ? null : ((Enum<?>) value).name());
  }

  @Override
  public Object read(WireReader in) {
    String name = in.readString();
    if (name == null) {
      return null;
    }
    Object constant = byName.get(name);
    if (constant == null) {
      throw new SchemaMismatch(RecordWalker.nameOf(type) + " has no constant " + name + " here");
    }
    return constant;
  }

  @Override
  public String schema() {
    return schema;
  }
}
