package dev.sluice.loadtest;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time (user + system) used so far by the server, from {@code /proc/<pid>/stat} as
 * scripts/cpu-per-request.sh reads it, and by this load generator, from the JVM: on a machine where
 * the two share the cores, a throughput figure is only read right beside what each side spent.
 */
final class ProcessCpu {
  /** Linux's USER_HZ, the unit of /proc's times; 100 on every kernel built for x86 and arm64. */
  private static final long TICKS_PER_SECOND = 100;
  private final String serverPid;

  /** {@code serverPid}: null or empty when the server's CPU is not to be read. */
  ProcessCpu(String serverPid) {
    this.serverPid = serverPid == null || serverPid.isEmpty() ? null : serverPid;
  }

  /** The server's CPU time in nanoseconds, or -1 without a PID. */
  long serverNanos() throws Exception {
    if (serverPid == null) {
      return -1;
    }
    String stat = Files.readString(Path.of("/proc", serverPid, "stat"));
    // Fields after the command name, which is in parentheses and may hold spaces: utime is the 14th field.
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * (1_000_000_000L / TICKS_PER_SECOND);
  }

  /** This JVM's CPU time in nanoseconds, or -1 where the JVM does not tell it. */
  static long ownNanos() {
    return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
        ? os.getProcessCpuTime() : -1;
  }
}
