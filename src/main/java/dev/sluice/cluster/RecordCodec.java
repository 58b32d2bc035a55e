package dev.sluice.cluster;

import io.vertx.core.buffer.Buffer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Encodes a frame's body, a value of one of the registered record types, compactly and without
 * JSON (design page cluster.md, §2.8): its type id (0 for no body), its schema hash, then its
 * components through the type's {@link RecordWalker}. Walkers are built once, here, so a type it
 * cannot carry fails at registration. Only registered types are ever decoded: the id on the wire
 * picks a walker from the table, and no class is ever looked up by a name from the wire. Immutable
 * once built, so any thread may use it.
 *
 * <p>The schema hash (design R8) is the first 8 bytes of the SHA-256 of the type's schema, its name
 * and every component's name and type, nested records spelt out. A node of another version whose
 * record at that id differs in any of these is detected, and its body refused with a
 * {@link SchemaMismatch} instead of being misread.
 */
public final class RecordCodec {
  private final List<RecordWalker> byId;
  private final Map<Class<?>, Integer> indexes = new HashMap<>();
  private final long[] hashes;

  /** The types, in a fixed order: a type's id is its position plus one. */
  public RecordCodec(List<Class<? extends Record>> types) {
    Map<Class<?>, RecordWalker> walkers = new HashMap<>();
    Set<Class<?>> building = new HashSet<>();
    hashes = new long[types.size()];
    for (int i = 0; i < types.size(); i++) {
      Class<?> type = types.get(i);
      if (indexes.put(type, i) != null) {
        throw new IllegalArgumentException(type.getName() + " is registered twice");
      }
      hashes[i] = hash(walker(type, walkers, building).schema());
    }
    byId = types.stream().map(walkers::get).toList();
  }

  /**
   * The walker of a type, built once and shared by every record that nests it. A record that
   * contains itself, however deep, is refused: frames stay of bounded depth, and so does reading.
   */
  private static RecordWalker walker(
      Class<?> type, Map<Class<?>, RecordWalker> walkers, Set<Class<?>> building) {
    RecordWalker built = walkers.get(type);
    if (built != null) {
      return built;
    }
    if (!building.add(type)) {
      throw new IllegalArgumentException(
          "RecordCodec cannot encode " + type.getName() + ": it contains itself");
    }
    RecordWalker walker = new RecordWalker(type, t -> walker(t, walkers, building));
    building.remove(type);
    walkers.put(type, walker);
    return walker;
  }

  /** Appends the body: a registered record, or null. */
  public void write(Buffer out, Record body) {
    if (body == null) {
      WireWriter.varint(out, 0);
      return;
    }
    int index = indexOf(body.getClass());
    WireWriter.varint(out, index + 1);
    out.appendLong(hashes[index]);
    byId.get(index).writeComponents(out, body);
  }

  /** Reads a body that {@link #write} wrote, with the same types registered. */
  Record read(WireReader in) {
    long id = in.readVarint();
    if (id == 0) {
      return null;
    }
    if (id < 0 || id > byId.size()) {
      throw new SchemaMismatch("record type id " + Long.toUnsignedString(id) + " is not known here");
    }
    int index = (int) id - 1;
    long hash = in.readLong();
    if (hash != hashes[index]) {
      throw new SchemaMismatch(RecordWalker.nameOf(byId.get(index).type()) + " differs: schema hash "
          + Long.toHexString(hash) + " from the sender, " + Long.toHexString(hashes[index]) + " here");
    }
    return (Record) byId.get(index).readComponents(in);
  }

  /** What the schema hash of a registered type is taken over. */
  String schema(Class<? extends Record> type) {
    return byId.get(indexOf(type)).schema();
  }

  long schemaHash(Class<? extends Record> type) {
    return hashes[indexOf(type)];
  }

  private int indexOf(Class<?> type) {
    Integer index = indexes.get(type);
    if (index == null) {
      throw new IllegalArgumentException(type.getName() + " is not a registered record type");
    }
    return index;
  }

  private static long hash(String schema) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(schema.getBytes(StandardCharsets.UTF_8));
      return ByteBuffer.wrap(digest).getLong();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}
