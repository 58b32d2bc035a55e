package dev.sluice.engine;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

/**
 * The size of the chunks of every shard's content slab, chosen once per process from the collector
 * it runs with (design/tails.md §2.3): under G1 the heap region size if it is at least 8 MiB, else
 * 8 MiB (a multiple of the smaller regions), so a chunk is a humongous object filling whole regions,
 * allocated outside eden and never moved; under any other collector 8 MiB (above ZGC's 4 MiB
 * medium-object limit, so a chunk gets a page of its own). Logged once, so a report shows it.
 */
final class SlabSizing {
  static final int DEFAULT_CHUNK_BYTES = 8 << 20;
  private static final System.Logger LOG = System.getLogger(SlabSizing.class.getName());

  private SlabSizing() {}

  /** The chunk size of this process's slabs. */
  static int chunkBytes() {
    return Chosen.BYTES;
  }

  /** Computed on first use (class initialization: once, thread-safe). */
  private static final class Chosen {
    static final int BYTES = choose();
  }

  private static int choose() {
    boolean g1 = false;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      g1 |= gc.getName().startsWith("G1");
    }
    long region = g1 ? g1RegionBytes() : 0;
    int bytes = region >= DEFAULT_CHUNK_BYTES && region <= (1 << 30) ? (int) region : DEFAULT_CHUNK_BYTES;
    LOG.log(System.Logger.Level.INFO, "Message content slabs use chunks of " + (bytes >> 10) + " KiB ("
        + (g1 ? "G1, heap regions of " + (region >> 10) + " KiB" : "not G1") + ")");
    return bytes;
  }

  /** G1's heap region size, or 0 when the JVM does not say (not HotSpot). */
  private static long g1RegionBytes() {
    try {
      HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
      return hotspot == null ? 0 : Long.parseLong(hotspot.getVMOption("G1HeapRegionSize").getValue());
    } catch (RuntimeException e) {
      return 0;
    }
  }
}
