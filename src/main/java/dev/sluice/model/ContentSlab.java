package dev.sluice.model;

import java.util.Arrays;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A shard's store of message contents (design/tails.md §2.3): each content is one record in a large
 * {@code byte[]} chunk, named by a {@code long} handle, so a waiting message's payload is no object
 * of its own for a young collection to copy or trace. Used only on the shard's event loop, like
 * everything else in the model; not thread-safe.
 *
 * <ul>
 *   <li><b>Chunks</b> hold {@link #chunkBytes()} each and are allocated when the open chunk (the one
 *       records are bump-allocated into) cannot fit the next record. A record never spans chunks.
 *   <li><b>Oversize records:</b> a record of more than a quarter of a chunk gets a dedicated chunk of
 *       exactly its size, never open, dropped on its release. The quarter bounds a shared chunk's
 *       unusable tail below a quarter of it, which is what lets compaction always get the slack under
 *       its 25% bound; with the engine's chunks of 8 MiB and more, no content (at most 1 MiB of
 *       payload plus its ids) is that large.
 *   <li><b>Handles:</b> the chunk's number in the high 32 bits, the record's offset in the low 32;
 *       {@link #NONE} for no record. Numbers are never reused (they wrap only after 2^31 chunks, and
 *       then skip numbers in use), and an open chunk that empties is rewound under a new number, so
 *       a stale handle finds no chunk, or a dead header, and is refused: it cannot read a newer
 *       record's bytes.
 *   <li><b>Freeing:</b> {@link #release} marks the record dead; a chunk left with no live bytes is
 *       dropped at once, except the open chunk, which is rewound and kept so a queue hovering near
 *       empty does not allocate a chunk per message. {@link #trim} drops an empty open chunk; then
 *       an empty slab holds no chunk.
 *   <li><b>Compaction:</b> once the slack (allocated − live bytes) exceeds both two chunks and 25% of
 *       what is allocated, {@link #compact} moves the live records of the sparsest shared chunk into
 *       the open chunk, a bounded number of bytes per call, telling each record's {@link Owner} its
 *       new handle; a chunk it empties is dropped. The caller repeats it in later turns while
 *       {@link #needsCompaction()} ({@link SlabCompactor}).
 * </ul>
 *
 * <p>Handle-taking methods are package-private: no handle leaves the model (design §5 R4).
 */
public final class ContentSlab {
  /** The handle of no record. */
  public static final long NONE = -1;
  /** A compaction step's bound in the shard: tens of microseconds of copying per turn. */
  public static final int COMPACTION_STEP_BYTES = 256 * 1024;

  /** Who holds a record's handle, told when compaction moves the record. */
  public interface Owner {
    void contentMoved(long newHandle);
  }

  /** What {@link #forEachLive} visits. */
  interface LiveRecord {
    void accept(long handle, int recordBytes, Owner owner);
  }

  private final int chunkBytes;
  private final int largestShared;
  private final LongMap<SlabChunk> chunks = new LongMap<>();
  private SlabChunk open;
  private int nextNumber;
  private long liveBytes;
  private long allocatedBytes;
  private final SlabCompaction compaction = new SlabCompaction(this);

  public ContentSlab(int chunkBytes) {
    if (chunkBytes < 64 * SlabChunk.HEADER) {
      throw new IllegalArgumentException("a chunk of " + chunkBytes + " bytes is too small");
    }
    this.chunkBytes = chunkBytes;
    this.largestShared = chunkBytes / 4;
  }

  public int chunkBytes() {
    return chunkBytes;
  }

  /** Bytes of live records, headers included. */
  public long liveBytes() {
    return liveBytes;
  }

  /** Bytes of the chunks held. */
  public long allocatedBytes() {
    return allocatedBytes;
  }

  public int chunkCount() {
    return chunks.size();
  }

  /** The bytes a record of this payload takes: what a message's accounting charges for it. */
  public static int recordSize(int payloadLength) {
    return SlabChunk.HEADER + payloadLength;
  }

  /** Packs {@code content} straight into a new live record owned by {@code owner}. */
  long write(PackedContent content, Owner owner) {
    int length = content.packedSize();
    long handle = reserve(length, owner);
    content.packInto(chunk(handle).data, offset(handle) + SlabChunk.HEADER);
    return handle;
  }

  long write(byte[] payload, Owner owner) {
    return write(payload, 0, payload.length, owner);
  }

  /** Copies {@code length} bytes of {@code src} into a new live record owned by {@code owner}. */
  long write(byte[] src, int offset, int length, Owner owner) {
    long handle = reserve(length, owner);
    System.arraycopy(src, offset, chunk(handle).data, offset(handle) + SlabChunk.HEADER, length);
    return handle;
  }

  /** A new live record of {@code length} payload bytes, for the caller to fill at once. */
  private long reserve(int length, Owner owner) {
    Objects.requireNonNull(owner, "every live record has an owner");
    if (length < 0 || length > Integer.MAX_VALUE - SlabChunk.HEADER) {
      throw new IllegalArgumentException("record of " + length + " bytes");
    }
    SlabChunk c = chunkFor(SlabChunk.HEADER + length);
    int at = c.reserve(length, owner);
    liveBytes += SlabChunk.HEADER + length;
    return handle(c.number, at);
  }

  /** Releases a live record; refuses a handle that names none. */
  void release(long handle) {
    SlabChunk c = chunk(handle);
    int at = offset(handle);
    liveBytes -= c.kill(at, c.liveOrdinal(at));
    emptied(c);
  }

  /** A copy of the record's payload (a message's travelling content). */
  byte[] copy(long handle) {
    SlabChunk c = liveChunk(handle);
    int from = offset(handle) + SlabChunk.HEADER;
    return Arrays.copyOfRange(c.data, from, from + c.payloadLength(offset(handle)));
  }

  /** A copy of the payload's format version 1 bytes (a row's {@code content}). */
  byte[] copyEncoded(long handle) {
    SlabChunk c = liveChunk(handle);
    int from = offset(handle) + SlabChunk.HEADER;
    return Arrays.copyOfRange(c.data, from,
        from + PackedContent.encodedLength(c.data, from, c.payloadLength(offset(handle))));
  }

  /** The attributes' MD5 a record's payload ends with, or null when it has no attributes. */
  byte[] attributesMd5(long handle) {
    SlabChunk c = liveChunk(handle);
    int at = offset(handle);
    return PackedContent.attributesMd5(c.data, at + SlabChunk.HEADER, c.payloadLength(at));
  }

  /** The record's content, decoded from the chunk's bytes. */
  PackedContent read(long handle) {
    SlabChunk c = liveChunk(handle);
    return PackedContent.unpack(c.data, offset(handle) + SlabChunk.HEADER, c.payloadLength(offset(handle)));
  }

  /** The console's preview of the record's content ({@link PackedContent#preview}); reads only. */
  ContentPreview preview(long handle, int maxBodyBytes, int maxValueBytes) {
    SlabChunk c = liveChunk(handle);
    int at = offset(handle);
    return PackedContent.preview(c.data, at + SlabChunk.HEADER, c.payloadLength(at), maxBodyBytes, maxValueBytes);
  }

  int recordBytes(long handle) {
    return liveChunk(handle).recordBytes(offset(handle));
  }

  Owner owner(long handle) {
    SlabChunk c = chunk(handle);
    return c.owners[c.liveOrdinal(offset(handle))];
  }

  /** True while a chunk is half evacuated, or the slack exceeds both two chunks and 25%. */
  public boolean needsCompaction() {
    return compaction.inProgress() || overSlackBound();
  }

  /**
   * One compaction step of at most {@code maxBytes} of work ({@link SlabCompaction#step}); the
   * caller repeats it in later turns while {@link #needsCompaction()}. Returns the step's work, 0
   * when there was nothing to do.
   */
  public int compact(int maxBytes) {
    return compaction.step(maxBytes);
  }

  boolean overSlackBound() {
    long slack = allocatedBytes - liveBytes;
    return slack > 2L * chunkBytes && slack * 4 > allocatedBytes;
  }

  /** Drops the open chunk if it holds no live record; true if it did. */
  public boolean trim() {
    if (open == null || open.live > 0) {
      return false;
    }
    drop(open);
    return true;
  }

  /** Visits every live record, in offset order within a chunk. */
  void forEachLive(LiveRecord visitor) {
    chunks.forEachValue(c -> SlabAudit.forEachLive(c, visitor));
  }

  /** Checks the counters and every chunk's records against each other; throws at the first wrong. */
  void audit() {
    long[] sums = new long[2];
    chunks.forEachValue(c -> {
      SlabAudit.chunk(c, c == open, chunkBytes, largestShared);
      sums[0] += c.live;
      sums[1] += c.data.length;
    });
    SlabAudit.totals(liveBytes, sums[0], allocatedBytes, sums[1]);
  }

  static int chunkNumber(long handle) {
    return (int) (handle >>> 32);
  }

  static int offset(long handle) {
    return (int) handle;
  }

  static long handle(int number, int offset) {
    return ((long) number << 32) | (offset & 0xFFFF_FFFFL);
  }

  private SlabChunk chunkFor(int recordBytes) {
    if (recordBytes > largestShared) {
      return allocate(recordBytes, true);
    }
    if (open == null || !open.fits(recordBytes)) {
      open = allocate(chunkBytes, false); // the old open chunk is sealed: it only empties from now
    }
    return open;
  }

  /** Moves the live record at {@code at} of a shared chunk into the open chunk and tells its owner. */
  void move(SlabChunk from, int at) {
    Owner owner = from.owners[from.liveOrdinal(at)];
    int length = from.payloadLength(at);
    SlabChunk to = chunkFor(SlabChunk.HEADER + length);
    long moved = handle(to.number, to.append(from.data, at + SlabChunk.HEADER, length, owner));
    from.kill(at, from.ordinal(at)); // liveBytes unchanged: the same record now lives in `to`
    emptied(from);
    owner.contentMoved(moved);
  }

  void forEachChunk(Consumer<SlabChunk> action) {
    chunks.forEachValue(action);
  }

  boolean isOpen(SlabChunk c) {
    return c == open;
  }

  private void emptied(SlabChunk c) {
    if (c.live > 0) {
      return;
    }
    if (c == open) {
      chunks.remove(c.number);
      c.rewind(newNumber());
      chunks.put(c.number, c);
    } else {
      drop(c);
    }
  }

  private SlabChunk allocate(int size, boolean dedicated) {
    SlabChunk c = new SlabChunk(newNumber(), size, dedicated);
    chunks.put(c.number, c);
    allocatedBytes += size;
    return c;
  }

  private void drop(SlabChunk c) {
    chunks.remove(c.number);
    allocatedBytes -= c.data.length;
    if (c == open) {
      open = null;
    }
    compaction.dropped(c);
  }

  /** The chunk of a handle whose record is live; IllegalStateException for a stale handle. */
  private SlabChunk liveChunk(long handle) {
    SlabChunk c = chunk(handle);
    c.liveOrdinal(offset(handle));
    return c;
  }

  private SlabChunk chunk(long handle) {
    SlabChunk c = handle == NONE ? null : chunks.get(chunkNumber(handle));
    if (c == null) {
      throw new IllegalStateException("stale content handle: chunk " + chunkNumber(handle) + " is gone");
    }
    return c;
  }

  private int newNumber() {
    int n;
    do {
      n = nextNumber;
      nextNumber = (nextNumber + 1) & Integer.MAX_VALUE; // handles stay non-negative, never NONE
    } while (chunks.get(n) != null);
    return n;
  }
}
