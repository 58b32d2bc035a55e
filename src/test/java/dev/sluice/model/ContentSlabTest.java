package dev.sluice.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Limits;
import dev.sluice.api.MessageAttributeValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The slab with 4 KiB chunks, case by case: where records go, when chunks are allocated and
 * dropped, how a stale handle is refused, and what one compaction step does.
 */
class ContentSlabTest {
  static final int CHUNK = 4096;
  /** A 100-byte payload makes a 108-byte record: 37 fill a chunk to 3,996 bytes. */
  static final int SMALL = 100;
  static final int PER_CHUNK = CHUNK / (SMALL + 8);

  /** Stands in for a message: holds its handle and its payload, counts the moves it was told of. */
  static final class Holder implements ContentSlab.Owner {
    final byte[] payload;
    long handle = ContentSlab.NONE;
    int moves;

    Holder(byte[] payload) {
      this.payload = payload;
    }

    @Override
    public void contentMoved(long newHandle) {
      handle = newHandle;
      moves++;
    }
  }

  final ContentSlab slab = new ContentSlab(CHUNK);

  static byte[] bytes(int length, int seed) {
    byte[] b = new byte[length];
    for (int i = 0; i < length; i++) {
      b[i] = (byte) (seed * 31 + i * 7);
    }
    return b;
  }

  Holder write(int length, int seed) {
    Holder h = new Holder(bytes(length, seed));
    h.handle = slab.write(h.payload, h);
    return h;
  }

  List<Holder> writeMany(int count, int length) {
    List<Holder> written = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      written.add(write(length, written.size()));
    }
    return written;
  }

  @Test
  void recordsAreWrittenInOrderReadBackAndReleased() {
    Holder a = write(100, 1);
    Holder b = write(200, 2);
    Holder c = write(300, 3);
    assertEquals(List.of(0, 108, 316), List.of(ContentSlab.offset(a.handle), ContentSlab.offset(b.handle),
        ContentSlab.offset(c.handle)));
    assertEquals(108 + 208 + 308, slab.liveBytes());
    assertEquals(CHUNK, slab.allocatedBytes());
    assertArrayEquals(b.payload, slab.copy(b.handle));
    assertEquals(208, slab.recordBytes(b.handle));
    assertSame(b, slab.owner(b.handle));

    slab.release(b.handle);
    assertEquals(108 + 308, slab.liveBytes());
    assertThrows(IllegalStateException.class, () -> slab.copy(b.handle));
    assertThrows(IllegalStateException.class, () -> slab.release(b.handle));
    assertArrayEquals(a.payload, slab.copy(a.handle));
    assertArrayEquals(c.payload, slab.copy(c.handle));
    slab.audit();
  }

  @Test
  void aPackedContentIsReadBackDecodedAndAsItsColumnBytes() {
    PackedContent content = PackedContentTest.full();
    Holder h = new Holder(content.pack());
    h.handle = slab.write(content, h);
    assertEquals(content, slab.read(h.handle));
    assertArrayEquals(content.pack(), slab.copy(h.handle));
    assertArrayEquals(content.encode(), slab.copyEncoded(h.handle));
    assertEquals(ContentSlab.recordSize(content.pack().length), slab.liveBytes());
  }

  @Test
  void aSealedChunkIsDroppedWithItsLastLiveRecord() {
    List<Holder> first = writeMany(PER_CHUNK, SMALL);
    Holder next = write(SMALL, 99);
    assertEquals(2, slab.chunkCount());
    assertEquals(2 * CHUNK, slab.allocatedBytes());
    for (Holder h : first.subList(1, PER_CHUNK)) {
      slab.release(h.handle);
    }
    assertEquals(2, slab.chunkCount(), "one live record keeps its chunk");
    slab.release(first.get(0).handle);
    assertEquals(1, slab.chunkCount());
    assertEquals(CHUNK, slab.allocatedBytes());
    assertEquals(108, slab.liveBytes());
    assertThrows(IllegalStateException.class, () -> slab.copy(first.get(5).handle));
    assertArrayEquals(next.payload, slab.copy(next.handle));
    slab.audit();
  }

  @Test
  void theOpenChunkEmptiedIsRewoundUnderANewNumberAndDroppedByTrim() {
    Holder a = write(SMALL, 1);
    slab.release(a.handle);
    assertEquals(0, slab.liveBytes());
    assertEquals(1, slab.chunkCount(), "kept: a queue hovering at empty allocates no chunk per message");
    Holder b = write(SMALL, 2);
    assertEquals(0, ContentSlab.offset(b.handle), "rewound");
    assertNotEquals(ContentSlab.chunkNumber(a.handle), ContentSlab.chunkNumber(b.handle));
    assertThrows(IllegalStateException.class, () -> slab.copy(a.handle), "a stale handle never reads b");
    assertFalse(slab.trim(), "b is live");
    slab.release(b.handle);
    assertTrue(slab.trim());
    assertEquals(0, slab.chunkCount());
    assertEquals(0, slab.allocatedBytes());
    assertFalse(slab.trim());
    slab.audit();
  }

  @Test
  void aRecordEndingExactlyAtTheChunksEndStaysInIt() {
    List<Holder> quarters = writeMany(4, CHUNK / 4 - 8); // the largest shared record, four to a chunk
    Holder last = quarters.get(3);
    assertEquals(1, slab.chunkCount());
    assertEquals(3 * CHUNK / 4, ContentSlab.offset(last.handle));
    assertArrayEquals(last.payload, slab.copy(last.handle));
    assertEquals(CHUNK, slab.liveBytes());
    Holder one = write(1, 5);
    assertEquals(2, slab.chunkCount());
    assertEquals(0, ContentSlab.offset(one.handle));
    slab.audit();
  }

  @Test
  void aRecordOverAQuarterChunkGetsAChunkOfExactlyItsSize() {
    Holder small = write(SMALL, 1);
    Holder big = write(CHUNK / 4 - 7, 2);
    assertEquals(CHUNK + CHUNK / 4 + 1, slab.allocatedBytes());
    Holder after = write(SMALL, 3);
    assertEquals(ContentSlab.chunkNumber(small.handle), ContentSlab.chunkNumber(after.handle), "still open");
    slab.release(big.handle);
    assertEquals(CHUNK, slab.allocatedBytes());
    assertThrows(IllegalStateException.class, () -> slab.copy(big.handle));
    slab.audit();
  }

  @Test
  void aOneMebibyteContentIsStoredAndFreed() {
    Holder before = write(SMALL, 1);
    Holder huge = write(Limits.MESSAGE_SIZE_MAX, 2);
    assertEquals(CHUNK + 8 + Limits.MESSAGE_SIZE_MAX, slab.allocatedBytes());
    assertArrayEquals(huge.payload, slab.copy(huge.handle));
    PackedContent content = new PackedContent("x".repeat(Limits.MESSAGE_SIZE_MAX),
        Map.of("a", MessageAttributeValue.ofString("b")), null, "s", null, null, null);
    Holder packed = new Holder(null);
    packed.handle = slab.write(content, packed);
    assertEquals(content, slab.read(packed.handle));
    slab.release(huge.handle);
    slab.release(packed.handle);
    assertEquals(CHUNK, slab.allocatedBytes());
    assertEquals(108, slab.liveBytes());
    assertArrayEquals(before.payload, slab.copy(before.handle));
    slab.audit();
  }

  @Test
  void aHandleOfADroppedChunkIsRefusedEvenAfterManyNewChunks() {
    List<Holder> first = writeMany(PER_CHUNK, SMALL);
    writeMany(1, SMALL);
    first.forEach(h -> slab.release(h.handle));
    List<Holder> later = writeMany(5 * PER_CHUNK, SMALL);
    long stale = first.get(0).handle;
    assertTrue(later.stream().noneMatch(h -> ContentSlab.chunkNumber(h.handle) == ContentSlab.chunkNumber(stale)));
    assertThrows(IllegalStateException.class, () -> slab.copy(stale));
    assertThrows(IllegalStateException.class, () -> slab.release(stale));
    assertThrows(IllegalStateException.class, () -> slab.copy(ContentSlab.NONE));
    long inside = later.get(0).handle + 4; // a live chunk, but no record starts there
    assertThrows(IllegalStateException.class, () -> slab.copy(inside));
    assertThrows(NullPointerException.class, () -> slab.write(new byte[1], null));
  }

  /** Fills chunks and keeps only the record at {@code keep} of each: a chunk held per record. */
  List<Holder> stragglers(int chunks, int keep) {
    List<Holder> kept = new ArrayList<>();
    for (int c = 0; c < chunks; c++) {
      List<Holder> chunk = writeMany(PER_CHUNK, SMALL);
      kept.add(chunk.get(keep));
      chunk.stream().filter(h -> h != chunk.get(keep)).forEach(h -> slab.release(h.handle));
    }
    return kept;
  }

  @Test
  void compactionMovesStragglersIntoTheOpenChunkAndTellsTheirOwners() {
    List<Holder> kept = stragglers(7, 0);
    List<Holder> full = writeMany(PER_CHUNK, SMALL); // the open chunk, full but for 100 bytes
    long live = slab.liveBytes();
    assertEquals(8 * CHUNK, slab.allocatedBytes());
    assertTrue(slab.needsCompaction());
    List<Long> before = kept.stream().map(h -> h.handle).toList();
    while (slab.needsCompaction()) {
      assertTrue(slab.compact(ContentSlab.COMPACTION_STEP_BYTES) > 0);
      slab.audit();
    }
    // Each evacuation drops a chunk; at 3 chunks the slack (7,536) is under two chunks.
    assertEquals(3 * CHUNK, slab.allocatedBytes());
    assertEquals(live, slab.liveBytes());
    List<Holder> moved = kept.stream().filter(h -> h.moves == 1).toList();
    assertEquals(6, moved.size());
    assertEquals(1, kept.stream().filter(h -> h.moves == 0).count());
    for (Holder h : moved) {
      assertArrayEquals(h.payload, slab.copy(h.handle));
      assertSame(h, slab.owner(h.handle));
      assertNotEquals(ContentSlab.chunkNumber(full.get(0).handle), ContentSlab.chunkNumber(h.handle),
          "the full open chunk was sealed; they went to a new one");
      assertThrows(IllegalStateException.class, () -> slab.copy(before.get(kept.indexOf(h))));
    }
    full.forEach(h -> assertArrayEquals(h.payload, slab.copy(h.handle)));
  }

  @Test
  void aStepDoesBoundedWorkAndAtLeastOneRecord() {
    List<Holder> kept = stragglers(7, PER_CHUNK - 1); // 36 dead headers before each live record
    writeMany(PER_CHUNK, SMALL);
    List<Integer> works = new ArrayList<>();
    while (slab.needsCompaction()) {
      works.add(slab.compact(50));
      slab.audit();
    }
    // Per chunk: dead headers, 8 bytes of work each, until a step reaches 50 (five steps of seven,
    // one of the last one); then the 108-byte record, over the bound but a step's first.
    List<Integer> perChunk = List.of(56, 56, 56, 56, 56, 8, 108);
    List<Integer> expected = new ArrayList<>();
    for (int c = 0; c < 6; c++) {
      expected.addAll(perChunk);
    }
    assertEquals(expected, works);
    assertEquals(6, kept.stream().filter(h -> h.moves == 1).count());
    assertEquals(0, slab.compact(50), "nothing left to do");
  }

  @Test
  void compactionWaitsForSlackOverBothTwoChunksAndAQuarter() {
    writeMany(PER_CHUNK + 3, SMALL); // two chunks, slack 47% but under two chunks
    assertTrue(slack() * 4 > slab.allocatedBytes() && slack() <= 2 * CHUNK);
    assertFalse(slab.needsCompaction());
    assertEquals(0, slab.compact(ContentSlab.COMPACTION_STEP_BYTES));

    List<Holder> many = writeMany(40 * PER_CHUNK, SMALL);
    for (int i = 0; i < many.size() && slack() <= 2 * CHUNK + 1000; i += 3) {
      slab.release(many.get(i).handle);
    }
    assertTrue(slack() > 2 * CHUNK && slack() * 4 <= slab.allocatedBytes()); // over two chunks, under 25%
    assertFalse(slab.needsCompaction());
    assertEquals(0, slab.compact(ContentSlab.COMPACTION_STEP_BYTES));

    for (int i = 1; i < many.size() && slack() * 4 <= slab.allocatedBytes(); i += 3) {
      slab.release(many.get(i).handle);
    }
    assertTrue(slab.needsCompaction());
    assertTrue(slab.compact(ContentSlab.COMPACTION_STEP_BYTES) > 0);
  }

  long slack() {
    return slab.allocatedBytes() - slab.liveBytes();
  }
}
