package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testtools.JvmFlagSets;
import dev.sluice.testtools.JvmFlagSets.FlagSet;
import dev.sluice.testtools.ServerJar;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * The JVM flags operations.md recommends, run as written: the packaged jar starts under every JDK
 * on this machine (the one running the tests, and each under {@code /usr/lib/jvm}) with each flag
 * set of the page ({@link JvmFlagSets}) that JDK is recent enough for, passed the way the container
 * image passes them ({@code JDK_JAVA_OPTIONS}); it logs the JVM and the collector the flags name,
 * and sends, receives and deletes a message. A set a JDK is too old for is skipped and said so; at
 * least one set must run. {@code KubernetesManifestsTest} checks the image's flags are one of them.
 */
class PackagedServerJvmIT {
  private static final Pattern RELEASE_VERSION = Pattern.compile("(?m)^JAVA_VERSION=\"(\\d+)");

  @Test
  void everyDocumentedFlagSetRunsTheServerOnEveryJdkRecentEnough() throws Exception {
    List<FlagSet> sets = JvmFlagSets.documented();
    assertFalse(sets.isEmpty(), "operations.md's JVM and collector section gives flag sets");
    Map<Path, Integer> jdks = jdks();
    int ran = 0;
    for (FlagSet set : sets) {
      for (Map.Entry<Path, Integer> jdk : jdks.entrySet()) {
        if (jdk.getValue() < set.minimumJdk()) {
          System.out.println("PackagedServerJvmIT: skipped [" + set.flags() + "] on " + jdk.getKey() + " (JDK "
              + jdk.getValue() + ", the set needs " + set.minimumJdk() + ")");
          continue;
        }
        runsWith(jdk.getKey(), jdk.getValue(), set);
        ran++;
      }
    }
    assertTrue(ran > 0, "no documented flag set ran on the JDKs here: " + jdks);
  }

  /** Each distinct JDK here (its {@code bin/java}, real path) with its feature release. */
  private static Map<Path, Integer> jdks() throws IOException {
    Map<Path, Integer> found = new TreeMap<>();
    List<Path> homes = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"))));
    Path jvms = Path.of("/usr/lib/jvm");
    if (Files.isDirectory(jvms)) {
      try (Stream<Path> list = Files.list(jvms)) {
        list.forEach(homes::add);
      }
    }
    for (Path home : homes) {
      Path java = home.resolve("bin/java");
      if (Files.isExecutable(java)) {
        feature(home).ifPresent(v -> {
          try {
            found.putIfAbsent(java.toRealPath(), v);
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        });
      }
    }
    return found;
  }

  private static Optional<Integer> feature(Path home) throws IOException {
    Path release = home.resolve("release");
    if (!Files.isRegularFile(release)) {
      return home.equals(Path.of(System.getProperty("java.home")))
          ? Optional.of(Runtime.version().feature()) : Optional.empty();
    }
    Matcher m = RELEASE_VERSION.matcher(Files.readString(release));
    return m.find() ? Optional.of(Integer.parseInt(m.group(1))) : Optional.empty();
  }

  private static void runsWith(Path java, int feature, FlagSet set) throws Exception {
    int port = QuickstartIT.freePort();
    Path log = ServerJar.newLog("jvm-" + feature + "-");
    // A small heap and the quick JIT, given on the command line beside the flags under test: with
    // AlwaysPreTouch the default initial heap (1/64 of the machine) took seconds to touch per start.
    ProcessBuilder pb = new ProcessBuilder(java.toString(), "-Xms64m", "-Xmx256m", "-XX:TieredStopAtLevel=1",
        "-Dvertx.cacheDirBase=" + System.getProperty("vertx.cacheDirBase", "target/vertx-cache"),
        "-jar", ServerJar.jar().toString())
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    pb.environment().putAll(Map.of("JDK_JAVA_OPTIONS", set.flags(), "SLUICE_HTTP_HOST", "127.0.0.1",
        "SLUICE_HTTP_PORT", Integer.toString(port)));
    String what = "[" + set.flags() + "] on JDK " + feature + " (" + java + "), log " + log;
    try (PackagedServer server = PackagedServer.launch(port, log, pb); SqsClient sqs = server.sqs("AKID", "secret")) {
      String url = sqs.createQueue(b -> b.queueName("jvm-check")).queueUrl();
      sqs.sendMessage(b -> b.queueUrl(url).messageBody("on JDK " + feature));
      List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(5)).messages();
      assertEquals(1, got.size(), what);
      assertEquals("on JDK " + feature, got.get(0).body(), what);
      sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(got.get(0).receiptHandle()));
    } // closing stops the server and checks its log holds no warning or error
    String output = Files.readString(log);
    assertTrue(output.contains("Picked up JDK_JAVA_OPTIONS: " + set.flags()), "the launcher took the flags: " + what);
    Matcher running = Pattern.compile("Running on [^\n]* " + feature + "[.+][^,]*, garbage collector ([^,]*),")
        .matcher(output);
    assertTrue(running.find(), "the start-up line names the JVM " + feature + ": " + what);
    assertTrue(running.group(1).contains(set.collector()), "the collector is " + set.collector() + ", not "
        + running.group(1) + ": " + what);
  }
}
