package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.ServerJar;
import dev.sluice.testtools.ThrowawayPostgres;
import dev.sluice.testtools.Tool;
import dev.sluice.testtools.Tools;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * The README's outbox section as a user follows it: an application database with its own role and
 * an {@code accounts} table, the packaged jar started with the README's file (only the port
 * changed), which makes the outbox table; the README's SQL transaction run with psql and its Java
 * block compiled against Vert.x's PostgreSQL client and run; a transaction rolled back. Both
 * committed messages arrive, once each, with their attributes; the rolled-back one never does.
 */
@NeedsTools(Tool.POSTGRESQL)
class ReadmeOutboxIT {
  @Test
  void theReadmeOutboxExampleWorksAsWritten(@TempDir Path work) throws Exception {
    String readme = Files.readString(QuickstartIT.README);
    assertTrue(readme.contains("java -jar target/sluice.jar --config shop.yaml"), "the README starts it so");
    try (ThrowawayPostgres app = ThrowawayPostgres.start()) {
      psql(app, "postgres", "postgres", "CREATE ROLE app LOGIN; CREATE DATABASE shop OWNER app;");
      psql(app, "app", "shop", "CREATE TABLE accounts (id int PRIMARY KEY, balance numeric);"
          + " INSERT INTO accounts VALUES (7, 100);");
      Path config = work.resolve("shop.yaml");
      Files.writeString(config, QuickstartIT.fencedBlockAfter(readme, "<!-- outbox-config")
          .replace("5432", Integer.toString(app.port())));
      int port = QuickstartIT.freePort();
      Process sluice = ServerJar.logging(ServerJar.newLog("readme-outbox-"),
          Map.of("SLUICE_HTTP_PORT", Integer.toString(port)), "--config", config.toString()).start();
      try (SqsClient sqs = TopicDurableIT.sqs(port)) {
        QuickstartIT.awaitPort(port, sluice);
        awaitTable(app);
        psql(app, "app", "shop", QuickstartIT.fencedBlockAfter(readme, "<!-- outbox-sql"));
        runJava(work, QuickstartIT.fencedBlockAfter(readme, "<!-- outbox-java"),
            "postgresql://app@127.0.0.1:" + app.port() + "/shop");
        psql(app, "app", "shop", "BEGIN; INSERT INTO sluice_outbox (queue_name, body) VALUES ('orders', 'never');"
            + " ROLLBACK;");
        String url = "http://127.0.0.1:" + port + "/000000000000/orders";
        List<Message> got = new ArrayList<>();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (got.size() < 2 && System.nanoTime() < until) {
          got.addAll(sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).waitTimeSeconds(2)
              .messageAttributeNames("All").visibilityTimeout(60)).messages());
        }
        assertEquals(List.of("{\"paid\": 42}", "{\"paid\": 42}"), got.stream().map(Message::body).toList());
        assertEquals(1, got.stream().filter(m -> m.messageAttributes().containsKey("kind")
            && "payment".equals(m.messageAttributes().get("kind").stringValue())).count(), got.toString());
        assertEquals(List.of(), sqs.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(2)).messages(),
            "nothing rolled back, nothing twice");
        assertEquals("16", psql(app, "app", "shop", "SELECT balance FROM accounts WHERE id = 7").strip());
        assertEquals("0", psql(app, "app", "shop", "SELECT count(*) FROM sluice_outbox").strip());
      } finally {
        sluice.destroy();
        if (!sluice.waitFor(15, TimeUnit.SECONDS)) {
          sluice.destroyForcibly();
        }
      }
    }
  }

  /** The relay makes the table at start-up, on its own connection: the test waits for it. */
  private static void awaitTable(ThrowawayPostgres app) throws Exception {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!psql(app, "app", "shop", "SELECT to_regclass('sluice_outbox') IS NOT NULL").strip().equals("t")) {
      assertTrue(System.nanoTime() < until, "the outbox table was not made");
      Thread.sleep(100);
    }
  }

  /** psql as {@code user} on {@code database}, unaligned and tuples only, stopping at the first error. */
  static String psql(ThrowawayPostgres pg, String user, String database, String sql) throws Exception {
    Process p = new ProcessBuilder(Tools.postgresBin().resolve("psql").toString(), "-X", "-q", "-A", "-t",
        "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", Integer.toString(pg.port()), "-U", user, "-d", database)
        .redirectErrorStream(true).start();
    try (var stdin = p.getOutputStream()) {
      stdin.write(sql.getBytes(StandardCharsets.UTF_8));
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(30, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), sql + "\n" + out);
    return out;
  }

  /** Wraps the block in a main given a pool on {@code url}, compiles it against the PostgreSQL client and runs it. */
  private static void runJava(Path work, String block, String url) throws Exception {
    String classPath = work + File.pathSeparator + System.getProperty("java.class.path");
    Path source = work.resolve("OutboxExample.java");
    Files.writeString(source, """
        import io.vertx.core.Future;
        import io.vertx.core.Vertx;
        import io.vertx.pgclient.PgBuilder;
        import io.vertx.sqlclient.Pool;
        import io.vertx.sqlclient.Tuple;

        public class OutboxExample {
          public static void main(String[] args) throws Exception {
            Vertx vertx = Vertx.vertx();
            Pool pool = PgBuilder.pool().connectingTo(args[0]).using(vertx).build();
            Future<?> done =
        %s
            done.await();
            vertx.close().await();
          }
        }
        """.formatted(block));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    int status = javac.run(null, errors, errors, "-cp", classPath, "-d", work.toString(), source.toString());
    assertEquals(0, status, "the README's Java block does not compile:\n" + errors.toString(StandardCharsets.UTF_8));
    Process p = new ProcessBuilder(Tools.java(), "-cp", classPath, "OutboxExample", url).redirectErrorStream(true)
        .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(30, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), out);
  }
}
