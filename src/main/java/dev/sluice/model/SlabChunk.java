package dev.sluice.model;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * One chunk of a {@link ContentSlab}: a {@code byte[]} that records are bump-allocated into and
 * that is freed whole. Records tile {@code [0, top)} with no gaps, so the chunk can be walked from
 * its start by the lengths in the headers.
 *
 * <p>A record is an 8-byte header then its payload. The header is two big-endian ints: the payload's
 * length, then the record's ordinal in the chunk with bit 31 set once the record is dead. The
 * ordinal names the record's slot in {@link #owners}, so compaction can find who to tell of a move
 * without a search. A dead record keeps its length (the walk needs it) and its owner slot is cleared.
 */
final class SlabChunk {
  static final int HEADER = 8;
  private static final int DEAD = 0x8000_0000;
  private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

  /** The number handles carry; never reused, and changed when an emptied open chunk is rewound. */
  int number;
  final byte[] data;
  /** A chunk made for one record too large to share one ({@link ContentSlab#write}). */
  final boolean dedicated;
  /** Bytes in use: every record, live or dead, lies below this. */
  int top;
  /** Bytes of the live records, headers included. */
  int live;
  /** Ordinals handed out so far. */
  int records;
  ContentSlab.Owner[] owners;

  SlabChunk(int number, int size, boolean dedicated) {
    this.number = number;
    this.data = new byte[size];
    this.dedicated = dedicated;
    this.owners = new ContentSlab.Owner[dedicated ? 1 : 16];
  }

  boolean fits(int recordBytes) {
    return data.length - top >= recordBytes;
  }

  /** Appends a live record (the caller checked {@link #fits}); returns its offset. */
  int append(byte[] src, int srcOffset, int length, ContentSlab.Owner owner) {
    int at = reserve(length, owner);
    System.arraycopy(src, srcOffset, data, at + HEADER, length);
    return at;
  }

  /**
   * Appends a live record whose {@code length} payload bytes the caller writes at the returned
   * offset + {@link #HEADER} at once (the caller checked {@link #fits}).
   */
  int reserve(int length, ContentSlab.Owner owner) {
    int at = top;
    int ordinal = records++;
    if (ordinal == owners.length) {
      owners = Arrays.copyOf(owners, owners.length * 2);
    }
    owners[ordinal] = owner;
    INT.set(data, at, length);
    INT.set(data, at + 4, ordinal);
    top = at + HEADER + length;
    live += HEADER + length;
    return at;
  }

  /**
   * The ordinal of the live record at {@code offset}, or IllegalStateException when no live record
   * starts there: a handle used after its release, or one that was never this chunk's. Checked on
   * every read and release (a header read), because a wrong answer here would hand a client another
   * message's body.
   */
  int liveOrdinal(int offset) {
    if (offset < 0 || offset > top - HEADER) {
      throw stale(offset, "past the chunk's records");
    }
    int word = (int) INT.get(data, offset + 4);
    if ((word & DEAD) != 0) {
      throw stale(offset, "a released record");
    }
    int length = payloadLength(offset);
    if (word >= records || owners[word] == null || length < 0 || length > top - offset - HEADER) {
      throw stale(offset, "not a record's start");
    }
    return word;
  }

  int payloadLength(int offset) {
    return (int) INT.get(data, offset);
  }

  int recordBytes(int offset) {
    return HEADER + payloadLength(offset);
  }

  boolean isDead(int offset) {
    return ((int) INT.get(data, offset + 4) & DEAD) != 0;
  }

  int ordinal(int offset) {
    return (int) INT.get(data, offset + 4) & ~DEAD;
  }

  /** Marks the live record at {@code offset} dead and forgets its owner; returns its bytes. */
  int kill(int offset, int ordinal) {
    int bytes = recordBytes(offset);
    INT.set(data, offset + 4, ordinal | DEAD);
    owners[ordinal] = null;
    live -= bytes;
    return bytes;
  }

  /**
   * Starts the chunk over under a new number (it holds no live record): handles into its old life
   * then find no chunk rather than a new record at the same offset. The stale bytes stay; nothing
   * at or past {@code top} is ever read.
   */
  void rewind(int newNumber) {
    number = newNumber;
    top = 0;
    records = 0;
    if (owners.length > 1024) {
      owners = new ContentSlab.Owner[16]; // a burst's slots need not outlive it
    }
  }

  private IllegalStateException stale(int offset, String what) {
    return new IllegalStateException("stale content handle: offset " + offset + " of chunk " + number
        + " is " + what);
  }
}
