package dev.sluice.loadtest;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * Every stop-the-world pause in a HotSpot unified GC log written with
 * {@code -Xlog:gc*,safepoint:file=gc.log:time,uptime,level,tags} (JDK 17 and 25; G1, ZGC,
 * generational ZGC, Shenandoah, generational Shenandoah), as one event per pause, a CSV and a
 * summary per kind. Only lines tagged exactly {@code gc}, {@code gc,phases} or {@code safepoint}
 * are read: the same names appear again in {@code gc,start} (a pause beginning, no duration),
 * {@code gc,stats} (Shenandoah's per-cycle and ZGC's periodic tables) and {@code gc,alloc} (ZGC's
 * stall counts), and counting those would count a pause twice or count a table. A line counts only
 * when its message starts with {@code Pause} and ends with a duration, so concurrent phases
 * ({@code Concurrent Mark}, Shenandoah's {@code Concurrent Final Roots}) and whole collections
 * ({@code Concurrent Mark Cycle}, ZGC's {@code Minor Collection (Allocation Stall) ... 0.021s}) do
 * not. See loadtest/src/test/resources/gc-logs/ for the lines this was checked against.
 *
 * <p>usage: {@code java -cp sluice-loadtest.jar dev.sluice.loadtest.GcPauses gc.log [out.csv]}
 * (or {@code java -jar sluice-loadtest.jar gc-pauses gc.log [out.csv]}); a {@code .gz} log is read
 * as such.
 */
public final class GcPauses {
  private GcPauses() {}

  /** What stopped: every event is one of these, and the summary has a line for each. */
  public enum Kind {
    /** A collector's pause as it logs it (G1, ZGC, Shenandoah), degenerated cycles apart. */
    GC_PAUSE("gc-pause"),
    /** Shenandoah's {@code Pause Degenerated GC (...)}: a stop-the-world fallback, even when it upgrades to a full GC. */
    DEGENERATED("degenerated"),
    /** A safepoint's {@code Total}: reaching it included (and leaving it, on 25), so the stricter figure; any VM operation, not only GCs. */
    SAFEPOINT("safepoint"),
    /** ZGC: one application thread waited for memory; the rest ran on. */
    ALLOCATION_STALL("allocation-stall"),
    /** ZGC: one application thread waited for an object being relocated. Overlaps allocation stalls at times (same thread, same moment), so kept apart rather than summed with them. */
    RELOCATION_STALL("relocation-stall");

    public final String label;

    Kind(String label) {
      this.label = label;
    }
  }

  /** One pause: uptime in seconds and wall-clock time as logged (NaN / "" when not decorated). */
  public record Event(double uptimeSeconds, String time, Kind kind, String name, double durationMs) {}

  /** Nearest-rank percentiles of one kind's durations; zeros when there were none. */
  public record Summary(Kind kind, int count, double p50Ms, double p99Ms, double maxMs, double totalMs) {
    public String line() {
      return String.format(Locale.ROOT, "%s: count %d, p50 %.3f ms, p99 %.3f ms, max %.3f ms, total %.3f ms",
          kind.label, count, p50Ms, p99Ms, maxMs, totalMs);
    }
  }

  private static final Pattern UPTIME = Pattern.compile("(\\d+(?:\\.\\d+)?)(s|ms)");
  private static final Pattern TIME = Pattern.compile("\\d{4}-\\d\\d-\\d\\dT.*");
  private static final Pattern LEVEL = Pattern.compile("trace|debug|info|warning|error");
  private static final Pattern TAGS = Pattern.compile("[a-z][a-z0-9_]*(,[a-z][a-z0-9_]*)*");
  /** G1 and Shenandoah add the heap before and after ({@code 120M->20M(4096M)}); ZGC 25 a generation ({@code y: }, {@code Y: }, {@code O: }). */
  private static final Pattern PAUSE = Pattern.compile(
      "(?:GC\\(\\d+\\) )?((?:[yYO]: )?Pause .+?)(?: \\d+[BKMGT]?->\\d+[BKMGT]?\\(\\d+[BKMGT]?\\))? (\\d+(?:\\.\\d+)?)(ms|us|s)");
  /** No GC id: an application thread. A stall with one (ZGC 25's {@code GC(32) O: Relocation Stall (ZWorkerOld#0)}) is a GC worker's, and stops no one. */
  private static final Pattern STALL = Pattern.compile("(Allocation|Relocation) Stall \\((.*)\\) (\\d+(?:\\.\\d+)?)ms");
  private static final Pattern SAFEPOINT = Pattern.compile("Safepoint \"([^\"]+)\", .*\\bTotal: (\\d+) ns.*");

  /** The pause a log line reports, or null when it reports none. */
  public static Event parseLine(String line) {
    double uptime = Double.NaN;
    String time = "";
    String tags = null;
    int at = 0;
    while (at < line.length() && line.charAt(at) == '[') { // the decorations, in whatever order and padding
      int end = line.indexOf(']', at);
      if (end < 0) {
        return null;
      }
      String d = line.substring(at + 1, end).trim();
      Matcher m = UPTIME.matcher(d);
      if (m.matches()) {
        uptime = Double.parseDouble(m.group(1)) / (m.group(2).equals("ms") ? 1000 : 1);
      } else if (TIME.matcher(d).matches()) {
        time = d;
      } else if (!LEVEL.matcher(d).matches() && TAGS.matcher(d).matches()) {
        tags = d;
      }
      at = end + 1;
    }
    if (tags == null) {
      return null;
    }
    String message = line.substring(at).strip();
    if (tags.equals("safepoint")) {
      Matcher m = SAFEPOINT.matcher(message);
      return m.matches() ? new Event(uptime, time, Kind.SAFEPOINT, m.group(1), Long.parseLong(m.group(2)) / 1e6) : null;
    }
    if (!tags.equals("gc") && !tags.equals("gc,phases")) {
      return null;
    }
    Matcher stall = STALL.matcher(message);
    if (tags.equals("gc") && stall.matches()) {
      Kind kind = stall.group(1).equals("Allocation") ? Kind.ALLOCATION_STALL : Kind.RELOCATION_STALL;
      return new Event(uptime, time, kind, message.substring(0, stall.start(3) - 1), Double.parseDouble(stall.group(3)));
    }
    Matcher pause = PAUSE.matcher(message);
    if (!pause.matches()) {
      return null;
    }
    String name = pause.group(1);
    double value = Double.parseDouble(pause.group(2));
    double ms = switch (pause.group(3)) {
      case "s" -> value * 1000;
      case "us" -> value / 1000;
      default -> value;
    };
    Kind kind = name.startsWith("Pause Degenerated") ? Kind.DEGENERATED : Kind.GC_PAUSE;
    return new Event(uptime, time, kind, name, ms);
  }

  public static List<Event> parse(Reader log) throws IOException {
    List<Event> events = new ArrayList<>();
    BufferedReader lines = log instanceof BufferedReader b ? b : new BufferedReader(log);
    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
      Event e = parseLine(line);
      if (e != null) {
        events.add(e);
      }
    }
    return events;
  }

  public static List<Event> parse(Path log) throws IOException {
    try (InputStream in = log.toString().endsWith(".gz")
        ? new GZIPInputStream(Files.newInputStream(log)) : Files.newInputStream(log)) {
      return parse(new InputStreamReader(in, StandardCharsets.UTF_8));
    }
  }

  /** One summary per kind, in {@link Kind}'s order, kinds without events included (count 0). */
  public static List<Summary> summarize(List<Event> events) {
    Map<Kind, List<Double>> byKind = new EnumMap<>(Kind.class);
    for (Kind k : Kind.values()) {
      byKind.put(k, new ArrayList<>());
    }
    for (Event e : events) {
      byKind.get(e.kind()).add(e.durationMs());
    }
    List<Summary> summaries = new ArrayList<>();
    for (Map.Entry<Kind, List<Double>> entry : byKind.entrySet()) {
      double[] d = entry.getValue().stream().mapToDouble(Double::doubleValue).sorted().toArray();
      double total = 0;
      for (double v : d) {
        total += v;
      }
      summaries.add(new Summary(entry.getKey(), d.length, rank(d, 0.50), rank(d, 0.99),
          d.length == 0 ? 0 : d[d.length - 1], total));
    }
    return summaries;
  }

  /** The nearest-rank percentile: the smallest value with at least q of them at or below it. */
  private static double rank(double[] sorted, double q) {
    return sorted.length == 0 ? 0 : sorted[Math.max(0, (int) Math.ceil(q * sorted.length) - 1)];
  }

  /** {@code uptime_s,time,kind,name,duration_ms}, one row per event, in log order (what plot-latency.py reads). */
  public static void writeCsv(List<Event> events, Writer out) throws IOException {
    out.write("uptime_s,time,kind,name,duration_ms\n");
    for (Event e : events) {
      out.write((Double.isNaN(e.uptimeSeconds()) ? "" : decimal(e.uptimeSeconds())) + "," + csv(e.time()) + ","
          + e.kind().label + "," + csv(e.name()) + "," + decimal(e.durationMs()) + "\n");
    }
  }

  /** Up to nanoseconds' precision, without trailing zeros: {@code 3.469134}, {@code 93.909}. */
  private static String decimal(double v) {
    String s = String.format(Locale.ROOT, "%.6f", v).replaceAll("0+$", "");
    return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
  }

  private static String csv(String field) {
    return field.contains(",") || field.contains("\"") ? "\"" + field.replace("\"", "\"\"") + "\"" : field;
  }

  public static void main(String[] args) throws IOException {
    int status = run(args, System.out);
    if (status != 0) {
      System.exit(status);
    }
  }

  /** The command line's work; its exit status. */
  static int run(String[] args, PrintStream out) throws IOException {
    if (args.length < 1 || args.length > 2) {
      System.err.println("usage: GcPauses gc.log [out.csv]   (prints a summary per kind; writes the pauses to out.csv)");
      return 2;
    }
    List<Event> events = parse(Path.of(args[0]));
    if (args.length == 2) {
      try (Writer w = Files.newBufferedWriter(Path.of(args[1]), StandardCharsets.UTF_8)) {
        writeCsv(events, w);
      }
    }
    for (Summary s : summarize(events)) {
      out.println(s.line());
    }
    return 0;
  }
}
