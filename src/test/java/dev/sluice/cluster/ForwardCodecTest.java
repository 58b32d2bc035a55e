package dev.sluice.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.ChangeMessageVisibilityBatch;
import dev.sluice.api.ErrorCode;
import dev.sluice.api.PeekMessages;
import dev.sluice.api.RedeliveryBackoffPolicy;
import dev.sluice.api.SqsException;
import io.vertx.core.buffer.Buffer;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class ForwardCodecTest {
  static final byte[] SECRET = "a cluster secret of thirty-two characters or more".getBytes(StandardCharsets.UTF_8);
  static final ForwardCodec CODEC = new ForwardCodec(SECRET, RecordCodecTest.API);
  static final ForwardedCaller CALLER = new ForwardedCaller("a1b2", "http://sluice:9324", "AKIDEXAMPLE",
      "Root=1-5759e988-bd862e3fe1be46a994272793", "000000000000", "eu-west-1", "AKIDEXAMPLE");
  /** What the Vert.x event bus writes before a body: the codec must start where it is told. */
  static final int HEADERS = 11;

  static Buffer encode(ForwardCodec codec, Frame frame) {
    Buffer buffer = Buffer.buffer().appendBytes(new byte[HEADERS]);
    codec.encodeToWire(buffer, frame);
    return buffer;
  }

  static Frame decode(Buffer buffer) {
    return CODEC.decodeFromWire(HEADERS, buffer);
  }

  static List<Frame> oneOfEachKind(Random random) {
    RandomValues values = new RandomValues(random);
    return List.of(
        new Frame.Request("node-a", 0, "node-b", 1, 17, 20_000, 9, CALLER,
            values.record(ChangeMessageVisibilityBatch.Request.class)),
        new Frame.Reply("node-b", Long.MAX_VALUE, "node-a", -1, 0, 1L << 40, null),
        Frame.Failure.of("node-b", 2, "node-a", 1, 63, 5, new SqsException(ErrorCode.ACCESS_DENIED,
            "User: x is not authorized", "Access to the resource is denied.")),
        new Frame.NotHere("node-b", 3, "node-a", 1, 17, null),
        new Frame.NotHere("node-b", 4, "node-a", 2, 17, "node-c"),
        new Frame.Cancel("node-a", 5, "node-b", 1),
        new Frame.Released("node-b", 6, "node-c", 17, 8),
        new Frame.OwnerHint("node-c", 7, null, 17, "node-c", 9));
  }

  @Test
  void everyKindOfFrameRoundTrips() {
    for (Frame frame : oneOfEachKind(new Random(1))) {
      assertEquals(frame, decode(encode(CODEC, frame)));
    }
  }

  @Test
  void everyApiRecordTravelsAsTheBodyOfARequestAndOfAReply() {
    Random random = new Random(2);
    RandomValues values = new RandomValues(random);
    for (Class<? extends Record> type : RecordTypes.API) {
      for (int i = 0; i < 100; i++) {
        ForwardedCaller caller = (ForwardedCaller) values.record(ForwardedCaller.class);
        Frame request = new Frame.Request(values.string(), random.nextLong(), values.string(),
            random.nextLong(), random.nextInt(), random.nextLong(), random.nextInt(), caller, values.record(type));
        Frame reply = new Frame.Reply(values.string(), random.nextLong(), null, random.nextLong(),
            random.nextInt(), random.nextLong(), values.record(type));
        assertEquals(request, decode(encode(CODEC, request)), type.getName());
        assertEquals(reply, decode(encode(CODEC, reply)), type.getName());
      }
    }
  }

  @Test
  void aPeekTravelsToTheQueuesOwnerAndItsPageBackWithBinaryValuesIntact() {
    PeekMessages.Request asked = new PeekMessages.Request("http://sluice:9324/000000000000/orders", 40, 10, 2_048,
        null);
    PeekMessages.Peeked peeked = new PeekMessages.Peeked("AAAAAAAAAAEAAAAAAAAAKg", "m-1", "md5",
        PeekMessages.PeekedState.IN_FLIGHT, 1_764_300_000_000L, 2, 1_764_299_990_000L, 1_764_299_980_000L, "g", "d",
        "00000000000000000001", "arn:aws:sqs:us-east-1:000000000000:src", "000000000000", null, "h\u00e9",
        3, false, Map.of("blob", new PeekMessages.PeekedAttribute("Binary", null, new byte[] {0, -1, 7}, 300, true)));
    PeekMessages.Response answered = new PeekMessages.Response(List.of(peeked), 12, 1_234_567, true);
    Frame request = new Frame.Request("node-a", 1, "node-b", 2, 17, 20_000, 9, CALLER, asked);
    Frame reply = new Frame.Reply("node-b", 3, "node-a", 2, 17, 5, answered);
    assertEquals(request, decode(encode(CODEC, request)));
    assertEquals(reply, decode(encode(CODEC, reply)));
  }

  @Test
  void aRedeliveryBackoffChangeTravelsToTheQueuesOwnerWithARemovalsNulls() {
    String url = "http://sluice:9324/000000000000/orders";
    for (RedeliveryBackoffPolicy.SetRequest asked : List.of(new RedeliveryBackoffPolicy.SetRequest(url, 5, 300),
        new RedeliveryBackoffPolicy.SetRequest(url, null, null))) {
      Frame request = new Frame.Request("node-a", 1, "node-b", 2, 17, 20_000, 9, CALLER, asked);
      Frame reply = new Frame.Reply("node-b", 3, "node-a", 2, 17, 5,
          new RedeliveryBackoffPolicy.Response(asked.baseSeconds(), asked.maxSeconds()));
      assertEquals(request, decode(encode(CODEC, request)));
      assertEquals(reply, decode(encode(CODEC, reply)));
    }
  }

  @Test
  void aFailureCarriesTheSqsExceptionsCodeAndBothWordings() {
    Frame.Failure failure = (Frame.Failure) oneOfEachKind(new Random(3)).get(2);
    SqsException e = ((Frame.Failure) decode(encode(CODEC, failure))).exception();
    assertEquals(ErrorCode.ACCESS_DENIED, e.code());
    assertEquals("User: x is not authorized", e.getMessage());
    assertEquals("Access to the resource is denied.", e.queryMessage());
  }

  @Test
  void aFlippedBitAnywhereIsRefused() {
    for (Frame frame : oneOfEachKind(new Random(4))) {
      Buffer encoded = encode(CODEC, frame);
      for (int bit = HEADERS * 8; bit < encoded.length() * 8; bit++) {
        Buffer damaged = encoded.copy();
        damaged.setByte(bit / 8, (byte) (damaged.getByte(bit / 8) ^ 1 << bit % 8));
        assertThrows(FrameRefused.class, () -> decode(damaged), frame + ", bit " + bit);
      }
    }
  }

  @Test
  void aFrameUnderAnotherSecretIsRefused() {
    ForwardCodec other = new ForwardCodec("another secret".getBytes(StandardCharsets.UTF_8), RecordCodecTest.API);
    FrameRefused e = assertThrows(FrameRefused.class,
        () -> decode(encode(other, oneOfEachKind(new Random(5)).get(0))));
    assertEquals("the MAC does not match: damaged, or another cluster secret", e.getMessage());
  }

  /** Even with a valid MAC: a later version may lay out its frames, or its MAC, differently. */
  @Test
  void anUnknownVersionIsRefused() {
    Buffer frame = signed((byte) 2,
        b -> FrameLayout.write(b, oneOfEachKind(new Random(6)).get(5), RecordCodecTest.API));
    FrameRefused e = assertThrows(FrameRefused.class, () -> decode(frame));
    assertEquals("frame version 2, this node reads 1", e.getMessage());
  }

  @Test
  void aTruncatedFrameIsRefusedWhetherOrNotItsLengthWasMended() {
    Buffer encoded = encode(CODEC, oneOfEachKind(new Random(7)).get(0));
    for (int end = HEADERS; end < encoded.length(); end++) {
      Buffer cut = encoded.getBuffer(0, end);
      assertThrows(FrameRefused.class, () -> decode(cut), "cut at " + end);
      if (end >= HEADERS + 4) {
        cut.setInt(HEADERS, end - HEADERS - 4);
        assertThrows(FrameRefused.class, () -> decode(cut), "cut at " + end + ", length mended");
      }
    }
  }

  /**
   * Sizes are bounded by the bytes left before anything is allocated for them, so a hostile frame
   * of a few bytes, even one with a valid MAC, cannot ask for gigabytes.
   */
  @Test
  void lengthPrefixesLargerThanTheBufferAreRefusedWithoutLargeAllocations() {
    Buffer hugeFrame = Buffer.buffer().appendBytes(new byte[HEADERS]).appendInt(Integer.MAX_VALUE)
        .appendBytes(new byte[40]);
    Buffer hugeSender = signed(ForwardCodec.VERSION, b -> {
      b.appendByte((byte) 1); // a request
      WireWriter.size(b, Integer.MAX_VALUE - 1);
    });
    Buffer hugeList = signed(ForwardCodec.VERSION, b -> {
      FrameLayout.write(b, new Frame.Request("node-a", 1, "node-b", 1, 0, 0, 0, CALLER, null), RecordCodecTest.API);
      b.setByte(b.length() - 1, (byte) (RecordTypes.API.indexOf(ChangeMessageVisibilityBatch.Request.class) + 1));
      b.appendLong(RecordCodecTest.API.schemaHash(ChangeMessageVisibilityBatch.Request.class));
      WireWriter.string(b, "https://queue");
      WireWriter.size(b, Integer.MAX_VALUE - 1); // entries
    });
    assertRefusedCheaply(hugeFrame, "a frame length of 2147483647 with 40 bytes");
    assertRefusedCheaply(hugeSender, "a size of 2147483646 with 0 bytes left");
    assertRefusedCheaply(hugeList, "a size of 2147483646 with 0 bytes left");
  }

  static void assertRefusedCheaply(Buffer frame, String reason) {
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    assertThrows(FrameRefused.class, () -> decode(frame)); // warmed up: class loading is not counted
    long before = threads.getCurrentThreadAllocatedBytes();
    FrameRefused e = assertThrows(FrameRefused.class, () -> decode(frame));
    long allocated = threads.getCurrentThreadAllocatedBytes() - before;
    assertEquals(reason, e.getMessage());
    assertTrue(allocated < 1 << 20, allocated + " bytes allocated");
  }

  /** A frame with a valid MAC around whatever {@code content} appends after the version byte. */
  static Buffer signed(byte version, Consumer<Buffer> content) {
    Buffer buffer = Buffer.buffer().appendBytes(new byte[HEADERS]).appendInt(0).appendByte(version);
    content.accept(buffer);
    new FrameMac(SECRET).append(buffer, HEADERS + 4);
    return buffer.setInt(HEADERS, buffer.length() - HEADERS - 4);
  }

  @Test
  void aBodyOfAnotherVersionIsASchemaMismatchThatNamesItsFrame() {
    ForwardCodec older = new ForwardCodec(SECRET, new RecordCodec(List.of(RecordCodecTest.Before.Thing.class)));
    ForwardCodec newer = new ForwardCodec(SECRET, new RecordCodec(List.of(RecordCodecTest.After.Thing.class)));
    Buffer encoded = encode(older,
        new Frame.Request("node-a", 41, "node-b", 7, 3, 5_000, 2, CALLER, new RecordCodecTest.Before.Thing("x", 1)));
    SchemaMismatch e = assertThrows(SchemaMismatch.class, () -> newer.decodeFromWire(HEADERS, encoded));
    assertEquals("node-a", e.sender());
    assertEquals(41, e.sequence());
    assertEquals(7, e.requestId());
  }

  @Test
  void aReplayedFrameIsRefused() {
    FrameAuth auth = new FrameAuth("node-b");
    Buffer recorded = encode(CODEC, new Frame.Cancel("node-a", 5, "node-b", 1));
    auth.check(decode(recorded), true);
    FrameRefused e = assertThrows(FrameRefused.class, () -> auth.check(decode(recorded), true));
    assertEquals("sequence number 5 was seen before from node node-a", e.getMessage());
  }

  @Test
  void sequencesMayArriveOutOfOrderWithinTheWindowButNotOlder() {
    FrameAuth auth = new FrameAuth("node-b");
    auth.check(new Frame.Cancel("node-a", 2_000, "node-b", 1), true);
    auth.check(new Frame.Cancel("node-a", 977, "node-b", 1), true);
    FrameRefused e = assertThrows(FrameRefused.class,
        () -> auth.check(new Frame.Cancel("node-a", 976, "node-b", 1), true));
    assertEquals("sequence number 976 is older than the window (highest 2000) from node node-a", e.getMessage());
    auth.check(new Frame.Cancel("node-c", 976, "node-b", 1), true); // each sender has its own window
  }

  @Test
  void aSenderThatIsNotAMemberIsRefusedAndLeavesNothingBehind() {
    FrameAuth auth = new FrameAuth("node-b");
    Frame frame = decode(encode(CODEC, new Frame.Cancel("node-x", 1, "node-b", 1)));
    FrameRefused e = assertThrows(FrameRefused.class, () -> auth.check(frame, false));
    assertEquals("node node-x is not a member", e.getMessage());
    auth.check(frame, true);
  }

  @Test
  void aFrameForAnotherNodeIsRefusedAndAPublishedOneTaken() {
    FrameAuth auth = new FrameAuth("node-c");
    FrameRefused e = assertThrows(FrameRefused.class,
        () -> auth.check(new Frame.Cancel("node-a", 1, "node-b", 1), true));
    assertEquals("a frame for node node-b, not this one", e.getMessage());
    auth.check(new Frame.OwnerHint("node-a", 2, null, 4, "node-a", 9), true);
  }

  /** The bitmap window against a plain set of everything seen, over jumps, repeats and stragglers. */
  @Test
  void theWindowAgreesWithAReferenceOverRandomSequences() {
    Random random = new Random(8);
    for (int run = 0; run < 20; run++) {
      SequenceWindow window = new SequenceWindow();
      Set<Long> seen = new HashSet<>();
      long highest = -1;
      for (int i = 0; i < 5_000; i++) {
        long s = Math.max(-1, highest + random.nextInt(2_200) - 2_000 + (random.nextInt(50) == 0 ? 5_000 : 0));
        boolean expected = s >= 0 && !seen.contains(s) && (s > highest || highest - s < SequenceWindow.WIDTH);
        assertEquals(expected, window.accept(s) == null, "run " + run + ", step " + i + ": " + s);
        if (expected) {
          seen.add(s);
          highest = Math.max(highest, s);
        }
      }
    }
  }

  @Test
  void theCodecIsAUserCodecThatHandsLocalFramesOverUnchanged() {
    Frame frame = oneOfEachKind(new Random(9)).get(0);
    assertSame(frame, CODEC.transform(frame));
    assertEquals("sluice-forward", CODEC.name());
    assertEquals(-1, CODEC.systemCodecID());
  }
}
