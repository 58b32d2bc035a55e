package dev.sluice.loadtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.loadtest.GcPauses.Event;
import dev.sluice.loadtest.GcPauses.Kind;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Against real log lines (src/test/resources/gc-logs/, README there): every pause those lines hold,
 * with its logged duration, and nothing else — the figures were checked by hand against the files.
 */
class GcPausesTest {
  @Test
  void g1OnJdk17() throws Exception {
    List<Event> events = parse("jdk17-g1.log");
    assertEquals(List.of(
        "Pause Young (Normal) (G1 Evacuation Pause) 93.909",
        "Pause Young (Concurrent Start) (G1 Evacuation Pause) 8.330",
        "Pause Remark 0.554",
        "Pause Cleanup 0.110",
        "Pause Young (Mixed) (G1 Preventive Collection) 2.065",
        "Pause Full (G1 Compaction Pause) 23.058",
        "Pause Cleanup 0.206"), rows(events, Kind.GC_PAUSE));
    assertEquals(List.of("G1CollectForAllocation 94.160417", "G1CollectForAllocation 8.685656", "G1PauseRemark 0.933429",
        "G1PauseCleanup 0.165015", "G1CollectForAllocation 25.523497", "G1PauseCleanup 0.347313"),
        rows(events, Kind.SAFEPOINT));
    assertEquals(13, events.size());
    // The mixed collection and the full one it gave way to share one safepoint: its total holds both.
    assertTrue(25.523497 > 2.065 + 23.058);
    assertEquals("gc-pause: count 7, p50 2.065 ms, p99 93.909 ms, max 93.909 ms, total 128.232 ms",
        GcPauses.summarize(events).get(0).line());
    Event first = events.get(0);
    assertEquals(0.482, first.uptimeSeconds());
    assertEquals("2026-11-27T20:56:43.344+0000", first.time());
  }

  @Test
  void g1OnJdk25() throws Exception {
    List<Event> events = parse("jdk25-g1.log");
    assertEquals(List.of(
        "Pause Young (Normal) (G1 Evacuation Pause) (Evacuation Failure: Allocation) 173.981",
        "Pause Young (Normal) (G1 Evacuation Pause) (Evacuation Failure: Allocation) 2.702",
        "Pause Full (G1 Compaction Pause) 24.080",
        "Pause Remark 0.834",
        "Pause Cleanup 0.047"), rows(events, Kind.GC_PAUSE));
    // 25's safepoint line adds "Leaving safepoint" and thread counts; Total still closes the line's times.
    assertEquals(List.of("G1CollectForAllocation 174.235312", "G1CollectForAllocation 28.437916",
        "G1PauseRemark 2.587414", "G1PauseCleanup 0.242363"), rows(events, Kind.SAFEPOINT));
    assertEquals(9, events.size());
  }

  @Test
  void singleGenerationZgcOnJdk17() throws Exception {
    List<Event> events = parse("jdk17-zgc.log");
    assertEquals(List.of("Pause Mark Start 0.014", "Pause Mark End 0.019", "Pause Relocate Start 0.010",
        "Pause Mark Start 0.007", "Pause Mark End 0.016"), rows(events, Kind.GC_PAUSE));
    assertEquals(List.of("Allocation Stall (Thread-0) 128.242", "Allocation Stall (Thread-1) 134.250"),
        rows(events, Kind.ALLOCATION_STALL));
    assertEquals(List.of("Relocation Stall (Thread-0) 117.367", "Relocation Stall (Thread-1) 119.725"),
        rows(events, Kind.RELOCATION_STALL));
    assertEquals(List.of("ZMarkStart 0.334749", "ZMarkEnd 0.113868", "ZRelocateStart 0.026201", "ZMarkStart 0.346521",
        "ZMarkEnd 0.216594", "ZMarkStart 0.292367"), rows(events, Kind.SAFEPOINT));
    assertEquals(15, events.size());
    assertEquals("allocation-stall: count 2, p50 128.242 ms, p99 134.250 ms, max 134.250 ms, total 262.492 ms",
        GcPauses.summarize(events).get(3).line());
  }

  @Test
  void generationalZgcOnJdk25() throws Exception {
    List<Event> events = parse("jdk25-zgc.log");
    assertEquals(List.of("Y: Pause Mark Start (Major) 0.036", "Y: Pause Mark End 0.020", "Y: Pause Relocate Start 0.021",
        "O: Pause Mark End 0.023", "O: Pause Relocate Start 0.016",
        "y: Pause Mark Start 0.011", "y: Pause Mark End 0.023", "y: Pause Relocate Start 0.010"),
        rows(events, Kind.GC_PAUSE));
    assertEquals(List.of("Allocation Stall (Thread-0) 13.074", "Allocation Stall (Thread-1) 16.974"),
        rows(events, Kind.ALLOCATION_STALL));
    // Only the application thread's; the GC worker's (ZWorkerOld#0, 0.383 ms) stopped no one.
    assertEquals(List.of("Relocation Stall (Thread-0) 3.221"), rows(events, Kind.RELOCATION_STALL));
    assertEquals(8, rows(events, Kind.SAFEPOINT).size());
    assertEquals(0.294553, max(events, Kind.SAFEPOINT));
    assertEquals(19, events.size());
  }

  @Test
  void shenandoahOnJdk17() throws Exception {
    List<Event> events = parse("jdk17-shenandoah.log");
    assertEquals(List.of("Pause Final Roots 0.009", "Pause Init Mark (unload classes) 0.030",
        "Pause Final Mark (unload classes) 0.084", "Pause Init Update Refs 0.025", "Pause Final Update Refs 0.027",
        "Pause Full 25.927"), rows(events, Kind.GC_PAUSE));
    assertEquals(List.of("Pause Degenerated GC (Outside of Cycle) 16.463"), rows(events, Kind.DEGENERATED));
    assertEquals(List.of("ShenandoahFinalRoots 0.022853", "ShenandoahInitMark 0.058120",
        "ShenandoahFinalMarkStartEvac 0.404852", "ShenandoahInitUpdateRefs 0.326142",
        "ShenandoahFinalUpdateRefs 0.224248", "ShenandoahDegeneratedGC 16.498946", "ShenandoahFullGC 25.960150"),
        rows(events, Kind.SAFEPOINT));
    assertEquals(14, events.size());
  }

  @Test
  void shenandoahOnJdk25() throws Exception {
    List<Event> events = parse("jdk25-shenandoah.log");
    assertEquals(List.of("Pause Init Mark (unload classes) 0.113", "Pause Final Mark (unload classes) 0.159",
        "Pause Init Update Refs 0.019", "Pause Final Update Refs 0.044", "Pause Full 35.843"),
        rows(events, Kind.GC_PAUSE));
    assertEquals(List.of("Pause Degenerated GC (Mark) 4.099"), rows(events, Kind.DEGENERATED));
    // Leaving the safepoint took 6 ms here (Total 6.43 ms for a 0.113 ms pause): why the safepoint figure is kept.
    assertEquals(6.431966, max(events.subList(0, 2), Kind.SAFEPOINT));
    assertEquals(6, rows(events, Kind.SAFEPOINT).size());
    assertEquals(12, events.size());
  }

  @Test
  void generationalShenandoahOnJdk25() throws Exception {
    List<Event> events = parse("jdk25-shenandoah-generational.log");
    assertEquals(List.of("Pause Final Mark (Young) 0.126", "Pause Init Mark (Young) 0.035", "Pause Final Mark (Old) 0.213"),
        rows(events, Kind.GC_PAUSE));
    // Upgraded to a full GC inside the same pause: logged once, as the degenerated cycle, full GC included.
    assertEquals(List.of("Pause Degenerated GC (Young) (Outside of Cycle) 28.636"), rows(events, Kind.DEGENERATED));
    assertEquals(List.of("ShenandoahFinalMarkStartEvac 0.439539", "ShenandoahInitMark 0.060174",
        "ShenandoahFinalMarkStartEvac 0.243374", "ShenandoahDegeneratedGC 28.668245"), rows(events, Kind.SAFEPOINT));
    assertEquals(8, events.size());
  }

  /** Lines that name a pause, a stall or a duration without being one, each found in the files above. */
  @Test
  void unrelatedLinesAreNotPauses() throws Exception {
    String[][] lines = {
        {"jdk17-g1.log", "[gc] Using G1"},
        {"jdk17-g1.log", "[gc,start    ] GC(14) Pause Young"}, // its beginning: no duration
        {"jdk17-g1.log", "Evacuate Collection Set: 93.3ms"},
        {"jdk17-g1.log", "Concurrent Mark Cycle 15.856ms"},
        {"jdk17-g1.log", "garbage-first heap   total 65536K"},
        {"jdk25-g1.log", "Phase 4: Compact heap 6.794ms"},
        {"jdk17-zgc.log", "Garbage Collection (Allocation Stall)"},
        {"jdk17-zgc.log", "GC(8) Concurrent Mark 295.391ms"},
        {"jdk25-zgc.log", "Y: Young Generation 8M(12%)->16M(25%) 0.024s"},
        {"jdk25-zgc.log", "Minor Collection (Allocation Stall) 64M(100%)->64M(100%) 0.008s"},
        {"jdk25-zgc.log", "y: Allocation Stalls:          1"},
        {"jdk25-zgc.log", "O: Relocation Stall (ZWorkerOld#0) 0.383ms"},
        {"jdk25-zgc.log", "Young Pause: Pause Mark Start (Major)"},
        {"jdk25-zgc.log", "28.713 / 83.733"},
        {"jdk17-shenandoah.log", "Concurrent evacuation 0.838ms"},
        {"jdk17-shenandoah.log", "Concurrent cleanup 55M->10M(64M) 0.031ms"},
        {"jdk17-shenandoah.log", "Pause Full GC (N)                 25937 us"},
        {"jdk17-shenandoah.log", "Pause Full GC (G)              =    0.026 s"},
        {"jdk25-shenandoah.log", "Concurrent Final Roots (unload classes) 0.504ms"},
        {"jdk25-shenandoah.log", "Concurrent Init Update Refs (unload classes) 0.314ms"},
        {"jdk25-shenandoah-generational.log", "Degenerated GC upgrading to Full GC"},
        {"jdk25-shenandoah-generational.log", "Pause Degenerated GC (G)          28825 us"},
    };
    for (String[] l : lines) {
      String line = lineContaining(l[0], l[1]);
      assertNull(GcPauses.parseLine(line), line);
    }
  }

  @Test
  void decorationsInAnotherOrderOrWithoutTheTime() {
    Event e = GcPauses.parseLine("[482ms][info   ][gc          ] GC(14) Pause Young (Normal) (G1 Evacuation Pause) 38M->22M(64M) 93.909ms");
    assertEquals(new Event(0.482, "", Kind.GC_PAUSE, "Pause Young (Normal) (G1 Evacuation Pause)", 93.909), e);
    assertNull(GcPauses.parseLine("GC(14) Pause Young (Normal) (G1 Evacuation Pause) 38M->22M(64M) 93.909ms")); // no tags
  }

  @Test
  void nearestRankPercentilesAndEmptyKinds() {
    List<Event> events = new ArrayList<>();
    for (int i = 1; i <= 100; i++) {
      events.add(new Event(i, "", Kind.SAFEPOINT, "x", i));
    }
    List<GcPauses.Summary> s = GcPauses.summarize(events);
    assertEquals(new GcPauses.Summary(Kind.SAFEPOINT, 100, 50, 99, 100, 5050), s.get(2));
    assertEquals(new GcPauses.Summary(Kind.GC_PAUSE, 0, 0, 0, 0, 0), s.get(0));
    assertEquals(Kind.values().length, s.size());
  }

  @Test
  void commandLineWritesTheCsvAndPrintsOneLinePerKind(@TempDir Path dir) throws Exception {
    Path gz = dir.resolve("gc.log.gz"); // a compressed log, as results/ keeps them
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
      Files.copy(resource("jdk17-shenandoah.log"), out);
    }
    Path csv = dir.resolve("gc-pauses.csv");
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    assertEquals(0, GcPauses.run(new String[] {gz.toString(), csv.toString()}, new PrintStream(printed, true, StandardCharsets.UTF_8)));
    List<String> rows = Files.readAllLines(csv);
    assertEquals("uptime_s,time,kind,name,duration_ms", rows.get(0));
    assertEquals("1.198,2026-11-27T20:58:40.373+0000,gc-pause,Pause Final Roots,0.009", rows.get(1));
    assertEquals("3.151,2026-11-27T20:58:42.327+0000,degenerated,Pause Degenerated GC (Outside of Cycle),16.463", rows.get(11));
    assertEquals("3.929,2026-11-27T20:58:43.105+0000,safepoint,ShenandoahFullGC,25.96015", rows.get(14));
    assertEquals(15, rows.size());
    String[] lines = printed.toString(StandardCharsets.UTF_8).split("\n");
    assertEquals(5, lines.length);
    assertEquals("degenerated: count 1, p50 16.463 ms, p99 16.463 ms, max 16.463 ms, total 16.463 ms", lines[1]);
    assertEquals(2, GcPauses.run(new String[0], new PrintStream(OutputStream.nullOutputStream())));
  }

  @Test
  void namesWithACommaAreQuoted() throws IOException {
    StringWriter out = new StringWriter();
    GcPauses.writeCsv(List.of(new Event(1.5, "t", Kind.SAFEPOINT, "a, \"b\"", 2)), out);
    assertEquals("uptime_s,time,kind,name,duration_ms\n1.5,t,safepoint,\"a, \"\"b\"\"\",2\n", out.toString());
  }

  private static Path resource(String name) throws URISyntaxException {
    return Path.of(GcPausesTest.class.getResource("/gc-logs/" + name).toURI());
  }

  private static List<Event> parse(String name) throws Exception {
    return GcPauses.parse(resource(name));
  }

  private static String lineContaining(String file, String fragment) throws Exception {
    List<String> found = Files.readAllLines(resource(file)).stream().filter(l -> l.contains(fragment)).toList();
    assertEquals(1, found.size(), fragment + " in " + file);
    return found.get(0);
  }

  private static List<String> rows(List<Event> events, Kind kind) {
    return events.stream().filter(e -> e.kind() == kind)
        .map(e -> e.name() + " " + String.format(Locale.ROOT, e.kind() == Kind.SAFEPOINT ? "%.6f" : "%.3f", e.durationMs()))
        .toList();
  }

  private static double max(List<Event> events, Kind kind) {
    return events.stream().filter(e -> e.kind() == kind).mapToDouble(Event::durationMs).max().orElse(0);
  }
}
