package dev.sluice.loadtest;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The live heap by class, from {@code jcmd PID GC.class_histogram} (which collects first): two of
 * them taken before and during a load tell which classes the load keeps, and how many bytes each
 * added per unit of load.
 */
final class ClassHistogram {
  record Entry(String className, long instances, long bytes) {}

  private final Map<String, Entry> byClass;

  private ClassHistogram(Map<String, Entry> byClass) {
    this.byClass = byClass;
  }

  static ClassHistogram of(String pid) throws Exception {
    Process jcmd = new ProcessBuilder("jcmd", pid, "GC.class_histogram").redirectErrorStream(true).start();
    String text = new String(jcmd.getInputStream().readAllBytes());
    jcmd.waitFor(60, TimeUnit.SECONDS);
    return parse(text);
  }

  /** Lines like {@code    1:   12345   678900  java.lang.Object[] (java.base@17.0.15)}. */
  static ClassHistogram parse(String text) {
    Map<String, Entry> byClass = new HashMap<>();
    for (String line : text.split("\n")) {
      String[] f = line.trim().split("\\s+");
      if (f.length >= 4 && f[0].endsWith(":") && f[1].chars().allMatch(Character::isDigit)) {
        byClass.merge(f[3], new Entry(f[3], Long.parseLong(f[1]), Long.parseLong(f[2])),
            (a, b) -> new Entry(a.className(), a.instances() + b.instances(), a.bytes() + b.bytes()));
      }
    }
    return new ClassHistogram(byClass);
  }

  long totalBytes() {
    return byClass.values().stream().mapToLong(Entry::bytes).sum();
  }

  /** The {@code top} classes that grew most from {@code before} to this one, as instance and byte deltas. */
  List<Entry> grownSince(ClassHistogram before, int top) {
    List<Entry> grown = new ArrayList<>();
    for (Entry e : byClass.values()) {
      Entry old = before.byClass.getOrDefault(e.className(), new Entry(e.className(), 0, 0));
      grown.add(new Entry(e.className(), e.instances() - old.instances(), e.bytes() - old.bytes()));
    }
    grown.sort((a, b) -> Long.compare(b.bytes(), a.bytes()));
    return grown.subList(0, Math.min(top, grown.size()));
  }
}
