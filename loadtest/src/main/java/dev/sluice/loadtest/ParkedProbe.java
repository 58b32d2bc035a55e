package dev.sluice.loadtest;

import io.vertx.core.buffer.Buffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Memory held by parked long polls: the server's RSS (from /proc, after a full GC through jcmd)
 * with no client connected, then with --parked receives waiting on an empty queue; and the live
 * heap's growth by class between the two (jcmd's class histogram), to say who holds the bytes.
 */
final class ParkedProbe {
  private ParkedProbe() {}

  static void run(List<Worker> workers, String queueUrl, Options o) throws Exception {
    int parked = o.integer("parked", 10_000);
    String pid = o.string("server-pid", null);
    if (pid == null) {
      throw new IllegalArgumentException("--server-pid PID is required to read the server's RSS");
    }
    ClassHistogram heapBefore = ClassHistogram.of(pid);
    long before = rssAfterGc(pid);
    Buffer receive = SqsCalls.receiveBody(queueUrl, 1, 20);
    AtomicBoolean running = new AtomicBoolean(true);
    AtomicInteger answered = new AtomicInteger();
    for (int i = 0; i < parked; i++) {
      Worker w = workers.get(i % workers.size());
      w.context().runOnContext(v -> park(w, receive, running, answered));
    }
    Thread.sleep(TimeUnit.SECONDS.toMillis(o.integer("settle", 8)));
    long during = rssAfterGc(pid);
    ClassHistogram heapDuring = ClassHistogram.of(pid);
    int early = answered.get();
    running.set(false);
    long heapGrowth = heapDuring.totalBytes() - heapBefore.totalBytes();
    System.out.printf("live heap +%.1f MB (%.0f bytes per parked poll); the classes that grew most:%n",
        heapGrowth / 1048576.0, heapGrowth / (double) parked);
    for (ClassHistogram.Entry e : heapDuring.grownSince(heapBefore, o.integer("top-classes", 20))) {
      System.out.printf("  %+10d instances %+12d bytes (%6.0f B/poll)  %s%n",
          e.instances(), e.bytes(), e.bytes() / (double) parked, e.className());
    }
    System.out.printf("server RSS idle %d MB, with %d parked long polls %d MB: +%d MB (%.1f KB per parked poll);"
        + " %d polls answered before the measurement (should be 0)%n",
        before >> 20, parked, during >> 20, (during - before) >> 20, (during - before) / 1024.0 / parked, early);
  }

  private static void park(Worker w, Buffer receive, AtomicBoolean running, AtomicInteger answered) {
    if (!running.get()) {
      return;
    }
    w.sqs.call("ReceiveMessage", receive).onComplete((r, f) -> {
      answered.incrementAndGet();
      park(w, receive, running, answered);
    });
  }

  static long rssAfterGc(String pid) throws Exception {
    Process gc = new ProcessBuilder("jcmd", pid, "GC.run").redirectErrorStream(true).start();
    gc.getInputStream().readAllBytes();
    gc.waitFor(30, TimeUnit.SECONDS);
    Thread.sleep(500);
    for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
      }
    }
    throw new IllegalStateException("no VmRSS for pid " + pid);
  }
}
