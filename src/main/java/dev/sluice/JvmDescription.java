package dev.sluice;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One line naming the JVM, its garbage collector and its heap, logged once at start: a latency
 * figure or a memory complaint means little without them, and the container image picks the
 * collector with flags an operator can replace ({@code JDK_JAVA_OPTIONS}).
 */
final class JvmDescription {
  private JvmDescription() {}

  static String describe() {
    return describe(System.getProperty("java.vm.name"), Runtime.version().toString(),
        ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName).toList(),
        Runtime.getRuntime().maxMemory());
  }

  static String describe(String vmName, String version, List<String> collectors, long maxHeapBytes) {
    return vmName + " " + version + ", garbage collector " + collectors.stream().collect(Collectors.joining(", "))
        + String.format(", max heap %.1f GiB", maxHeapBytes / (double) (1L << 30));
  }
}
