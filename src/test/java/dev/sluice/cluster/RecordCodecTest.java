package dev.sluice.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.MessageAttributeValue;
import dev.sluice.api.ReceiveMessage;
import dev.sluice.api.SendMessage;
import io.vertx.core.buffer.Buffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class RecordCodecTest {
  static final RecordCodec API = new RecordCodec(RecordTypes.API);

  public record Bad(String fine, Instant when) {}

  public record BadlyNested(List<Map<Integer, String>> byNumber) {}

  public record Loop(String name, List<Loop> children) {}

  public enum Colour { RED, GREEN }

  public record Everything(String s, boolean b, int i, long l, Boolean nb, Integer ni, Long nl,
      byte[] bytes, Colour colour, List<List<String>> lists, Map<String, Map<String, Integer>> maps,
      MessageAttributeValue attribute) {}

  /** One version of a record, and the next one with a component changed. */
  public static final class Before {
    public record Thing(String name, int count) {}
  }

  public static final class After {
    public record Thing(String name, long count) {}
  }

  static Record roundTrip(RecordCodec codec, Record value) {
    Buffer buffer = Buffer.buffer();
    codec.write(buffer, value);
    WireReader in = new WireReader(buffer, 0, buffer.length());
    Record decoded = codec.read(in);
    in.expectEnd();
    return decoded;
  }

  @Test
  void everyRegisteredApiTypeRoundTripsAThousandRandomValues() {
    RandomValues random = new RandomValues(new Random(17));
    for (Class<? extends Record> type : RecordTypes.API) {
      for (int i = 0; i < 1_000; i++) {
        Record value = random.record(type);
        assertEquals(value, roundTrip(API, value), type.getName());
      }
    }
  }

  @Test
  void everySupportedKindOfComponentRoundTripsAndMapsKeepTheirOrder() {
    RecordCodec codec = new RecordCodec(List.of(Everything.class));
    RandomValues random = new RandomValues(new Random(3));
    for (int i = 0; i < 1_000; i++) {
      Everything value = (Everything) random.record(Everything.class);
      Everything decoded = (Everything) roundTrip(codec, value);
      // Arrays compare by reference in a record's equals: the bytes on their own, the rest with none.
      assertTrue(Arrays.equals(value.bytes(), decoded.bytes()));
      assertEquals(withoutBytes(value), withoutBytes(decoded));
      if (value.maps() != null) {
        assertEquals(List.copyOf(value.maps().keySet()), List.copyOf(decoded.maps().keySet()));
      }
    }
    assertNull(roundTrip(codec, null));
  }

  static Everything withoutBytes(Everything e) {
    return new Everything(e.s(), e.b(), e.i(), e.l(), e.nb(), e.ni(), e.nl(), null, e.colour(),
        e.lists(), e.maps(), e.attribute());
  }

  @Test
  void aTypeWithAComponentItCannotEncodeFailsAtRegistrationNamingIt() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new RecordCodec(List.of(Bad.class)));
    assertTrue(e.getMessage().contains("RecordCodecTest$Bad.when of type java.time.Instant"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> new RecordCodec(List.of(BadlyNested.class)));
    assertTrue(e.getMessage().contains("RecordCodecTest$BadlyNested.byNumber's elements of type "
        + "java.util.Map<java.lang.Integer, java.lang.String>"), e.getMessage());
  }

  @Test
  void aRecordThatContainsItselfFailsAtRegistration() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new RecordCodec(List.of(Loop.class)));
    assertTrue(e.getMessage().contains("RecordCodecTest$Loop: it contains itself"), e.getMessage());
  }

  @Test
  void onlyRegisteredTypesAreWritten() {
    assertThrows(IllegalArgumentException.class,
        () -> API.write(Buffer.buffer(), new Before.Thing("x", 1)));
  }

  /** Two nodes of different versions: the record at the same id changed, and the reader says so. */
  @Test
  void aRecordThatChangedBetweenVersionsIsDetectedByItsSchemaHash() {
    RecordCodec older = new RecordCodec(List.of(Before.Thing.class));
    RecordCodec newer = new RecordCodec(List.of(After.Thing.class));
    Buffer buffer = Buffer.buffer();
    older.write(buffer, new Before.Thing("x", 1));
    SchemaMismatch e = assertThrows(SchemaMismatch.class,
        () -> newer.read(new WireReader(buffer, 0, buffer.length())));
    assertTrue(e.getMessage().startsWith("RecordCodecTest$After$Thing differs: schema hash "), e.getMessage());

    Buffer unknown = Buffer.buffer();
    new RecordCodec(List.of(Before.Thing.class, After.Thing.class)).write(unknown, new After.Thing("x", 2));
    e = assertThrows(SchemaMismatch.class, () -> older.read(new WireReader(unknown, 0, unknown.length())));
    assertEquals("record type id 2 is not known here", e.getMessage());
  }

  /**
   * The hash is over the type's name and every component's name and type, nested records spelt
   * out; it is a SHA-256, so every JVM computes the same.
   */
  @Test
  void theSchemaNamesEveryComponentAndItsTypeRecursively() {
    RecordCodec codec = new RecordCodec(List.of(Before.Thing.class, After.Thing.class, Everything.class));
    assertEquals("RecordCodecTest$Before$Thing(name:String,count:int)", codec.schema(Before.Thing.class));
    assertEquals("RecordCodecTest$Everything(s:String,b:boolean,i:int,l:long,nb:Boolean,ni:Integer,"
        + "nl:Long,bytes:bytes,colour:enum RecordCodecTest$Colour{GREEN,RED},lists:List<List<String>>,"
        + "maps:Map<String,Map<String,Integer>>,attribute:MessageAttributeValue(dataType:String,"
        + "stringValue:String,binaryValue:bytes))", codec.schema(Everything.class));
    // printf '%s' 'RecordCodecTest$Before$Thing(name:String,count:int)' | sha256sum, first 8 bytes
    assertEquals(0xe4479898d3c6c7d0L, codec.schemaHash(Before.Thing.class));
    assertNotEquals(codec.schemaHash(Before.Thing.class), codec.schemaHash(After.Thing.class));
    assertTrue(API.schema(ReceiveMessage.Response.class).contains("messageAttributes:Map<String,"
        + "MessageAttributeValue(dataType:String,stringValue:String,binaryValue:bytes)>"));
    assertTrue(API.schema(SendMessage.Request.class).startsWith("SendMessage$Request(queueUrl:String,"));
  }

  /** Every record of the api package and its subpackages, top-level or nested, found in the compiled classes. */
  @Test
  void theTableHoldsEveryApiRecordOnce() throws Exception {
    Path classes = Path.of(RecordTypes.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Set<String> records = new TreeSet<>();
    try (Stream<Path> files = Files.walk(classes.resolve("dev/sluice/api"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
        String name = classes.relativize(f).toString().replace('/', '.').replace(".class", "");
        if (Class.forName(name, false, getClass().getClassLoader()).isRecord()) {
          records.add(name);
        }
      }
    }
    assertTrue(records.size() > 40, "found " + records);
    Set<String> table = RecordTypes.API.stream().map(Class::getName).collect(Collectors.toCollection(TreeSet::new));
    assertEquals(records, table, "RecordTypes.API must list every api record");
    assertEquals(RecordTypes.API.size(), new HashSet<>(RecordTypes.API).size(), "listed once");
  }

  @Test
  void sizesBeyondTheBytesLeftAreRefusedBeforeAnythingIsAllocated() {
    RecordCodec codec = new RecordCodec(List.of(Everything.class));
    Buffer hostile = Buffer.buffer();
    WireWriter.varint(hostile, 1);
    hostile.appendLong(codec.schemaHash(Everything.class));
    WireWriter.size(hostile, Integer.MAX_VALUE - 1); // s: a 2 GB string in a few bytes
    FrameRefused e = assertThrows(FrameRefused.class,
        () -> codec.read(new WireReader(hostile, 0, hostile.length())));
    assertEquals("a size of 2147483646 with 0 bytes left", e.getMessage());
  }
}
