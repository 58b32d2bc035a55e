package dev.sluice.testtools;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The packaged server as a child process, started the way a user starts it ({@code java -jar}),
 * with its leftovers kept under {@code target/}: a test that kills it with SIGKILL leaves no Vert.x
 * file cache and no log behind in the machine's temporary directory.
 *
 * <p>Some forty child JVMs start in a run of the suite, on two cores, and each spent about two
 * seconds of CPU loading and verifying the same classes. So each starts with a class-data archive
 * of the jar's classes, made once per test JVM by a training run of the jar (see
 * {@link #classArchive}), and with a quick start's JIT and GC (C1 only, serial collector): what
 * the tests ask of these servers is correctness under a few thousand calls, not peak throughput.
 * Nothing the server does depends on either; without an archive (its training failed) a child
 * starts as before, only slower.
 */
public final class ServerJar {
  private static final Path LOGS = Path.of("target", "it-logs");
  /** The archive for this JVM's children; null until made, empty if it could not be made. */
  private static Optional<Path> archive;

  private ServerJar() {
  }

  /** The packaged jar this build made (failsafe passes its path as {@code sluice.jar}). */
  public static Path jar() {
    return Path.of(System.getProperty("sluice.jar", "target/sluice.jar"));
  }

  /** {@code java -jar sluice.jar args} with {@code env} added to this process's environment. */
  public static ProcessBuilder process(Map<String, String> env, String... args) {
    return process(env, true, args);
  }

  /** As {@link #process}; {@code archived} false starts the child without the class archive, at the old speed. */
  static ProcessBuilder process(Map<String, String> env, boolean archived, String... args) {
    List<String> command = new ArrayList<>(List.of(Tools.java()));
    command.addAll(jvmOptions());
    if (archived) {
      classArchive().ifPresent(a -> command.add("-XX:SharedArchiveFile=" + a));
    }
    command.addAll(List.of("-Dvertx.cacheDirBase=" + System.getProperty("vertx.cacheDirBase", "target/vertx-cache"),
        "-jar", jar().toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().putAll(env);
    return pb;
  }

  /** The JIT and GC of every child JVM (a test's JAVA_TOOL_OPTIONS may add a heap size). */
  static List<String> jvmOptions() {
    return List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
  }

  /** As {@link #process}, its output appended to {@code log}. */
  public static ProcessBuilder logging(Path log, Map<String, String> env, String... args) {
    return process(env, args).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
  }

  /**
   * As {@link #logging}, without the class archive: ClusterOperationsIT's nodes start at the speed
   * the test was timed at. With the archive, a rolling restart's steps come closer together and it
   * saw FIFO deletes just after a hand-over refused as expired (three times in about ten runs): a
   * hand-over issue to find, not one to make likelier in every build.
   */
  public static ProcessBuilder loggingUnarchived(Path log, Map<String, String> env, String... args) {
    return process(env, false, args).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
  }

  /**
   * A new, empty log file under {@code target/it-logs} whose name starts with {@code prefix}: kept
   * after the run so a failure can be read, and removed by {@code mvn clean}.
   */
  public static Path newLog(String prefix) {
    try {
      Files.createDirectories(LOGS);
      return Files.createTempFile(LOGS, prefix, ".log");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A dynamic class-data archive (JDK 13+, {@code -XX:ArchiveClassesAtExit}) of the classes the jar
   * loads as a cluster node on PostgreSQL serving a few calls, made on first use by a training run
   * of the jar (a throwaway PostgreSQL, one node, some seconds once) and removed when this JVM
   * exits. Empty when it could not be made: the children then start without one.
   */
  static synchronized Optional<Path> classArchive() {
    if (archive == null) {
      archive = Optional.empty();
      try {
        archive = train();
      } catch (Exception e) {
        System.err.println("ServerJar: no class-data archive for the child JVMs (" + e + ")");
      }
    }
    return archive;
  }

  private static Optional<Path> train() throws Exception {
    Files.createDirectories(Path.of("target"));
    Path file = Files.createTempFile(Path.of("target"), "sluice-classes-", ".jsa").toAbsolutePath();
    Files.delete(file); // the JVM writes it at exit
    Runtime.getRuntime().addShutdownHook(new Thread(() -> file.toFile().delete()));
    Path log = newLog("class-archive-");
    int httpPort;
    int clusterPort;
    try (ServerSocket a = new ServerSocket(0); ServerSocket b = new ServerSocket(0)) {
      httpPort = a.getLocalPort();
      clusterPort = b.getLocalPort();
    }
    try (ThrowawayPostgres pg = ThrowawayPostgres.start()) {
      Map<String, String> env = new HashMap<>(Map.of(
          "SLUICE_STORAGE", "postgres",
          "SLUICE_PG_URL", pg.url(),
          "SLUICE_HTTP_HOST", "127.0.0.1",
          "SLUICE_HTTP_PORT", Integer.toString(httpPort),
          "SLUICE_CLUSTER_ENABLED", "true",
          "SLUICE_CLUSTER_SHARDS", "2",
          "SLUICE_CLUSTER_PORT", Integer.toString(clusterPort),
          "SLUICE_CLUSTER_EVENT_BUS_PORT", "0",
          "SLUICE_CLUSTER_MEMBERS", "127.0.0.1:" + clusterPort));
      List<String> command = new ArrayList<>(List.of(Tools.java()));
      command.addAll(jvmOptions());
      command.addAll(List.of("-XX:ArchiveClassesAtExit=" + file,
          "-Dvertx.cacheDirBase=" + System.getProperty("vertx.cacheDirBase", "target/vertx-cache"),
          "-jar", jar().toString()));
      ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
      pb.environment().putAll(env);
      Process p = pb.start();
      try {
        exercise(p, URI.create("http://127.0.0.1:" + httpPort));
        p.destroy(); // SIGTERM: a clean exit, which writes the archive
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0 || !Files.isRegularFile(file)) {
          throw new IllegalStateException("the training run wrote no archive; see " + log);
        }
      } finally {
        p.destroyForcibly();
      }
    }
    return Optional.of(file);
  }

  /** Waits until the server is ready, then makes a few calls of both protocols. */
  private static void exercise(Process p, URI endpoint) throws Exception {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      if (!p.isAlive() || System.nanoTime() > deadline) {
        throw new IllegalStateException("the training run did not become ready");
      }
      try {
        if (http.send(HttpRequest.newBuilder(endpoint.resolve("/health/ready")).GET().build(),
            HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          break;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      Thread.sleep(100);
    }
    String queue = endpoint + "/000000000000/training";
    String fifo = endpoint + "/000000000000/training.fifo";
    json(http, endpoint, "CreateQueue", "{\"QueueName\":\"training\"}");
    json(http, endpoint, "CreateQueue", "{\"QueueName\":\"training.fifo\",\"Attributes\":{\"FifoQueue\":\"true\"}}");
    json(http, endpoint, "SendMessage", "{\"QueueUrl\":\"" + queue + "\",\"MessageBody\":\"m\"}");
    json(http, endpoint, "SendMessageBatch", "{\"QueueUrl\":\"" + fifo + "\",\"Entries\":[{\"Id\":\"a\","
        + "\"MessageBody\":\"f\",\"MessageGroupId\":\"g\",\"MessageDeduplicationId\":\"d\"}]}");
    json(http, endpoint, "ReceiveMessage", "{\"QueueUrl\":\"" + queue + "\",\"MaxNumberOfMessages\":10}");
    json(http, endpoint, "ReceiveMessage", "{\"QueueUrl\":\"" + fifo + "\",\"MaxNumberOfMessages\":10}");
    json(http, endpoint, "GetQueueAttributes", "{\"QueueUrl\":\"" + queue + "\",\"AttributeNames\":[\"All\"]}");
    json(http, endpoint, "ListQueues", "{}");
    http.send(HttpRequest.newBuilder(endpoint).header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString("Action=ListQueues&Version=2012-11-05")).build(),
        HttpResponse.BodyHandlers.discarding());
    http.send(HttpRequest.newBuilder(endpoint.resolve("/metrics")).GET().build(),
        HttpResponse.BodyHandlers.discarding());
  }

  private static void json(HttpClient http, URI endpoint, String action, String body) throws Exception {
    http.send(HttpRequest.newBuilder(endpoint).header("Content-Type", "application/x-amz-json-1.0")
        .header("X-Amz-Target", "AmazonSQS." + action).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.discarding());
  }
}
