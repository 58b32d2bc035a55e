package dev.sluice.loadtest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A process's resident set size, from {@code /proc/<pid>/status} (what {@code ps -o rss=} shows). */
final class ServerRss {
  private ServerRss() {}

  /** VmRSS in kilobytes, or -1 without a PID or when the process is gone. */
  static long kb(String pid) {
    if (pid == null || pid.isEmpty()) {
      return -1;
    }
    try {
      for (String line : Files.readAllLines(Path.of("/proc", pid, "status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("\\D", ""));
        }
      }
    } catch (IOException | NumberFormatException gone) {
      return -1;
    }
    return -1;
  }
}
