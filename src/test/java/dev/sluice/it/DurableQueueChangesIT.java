package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testtools.ServerJar;
import dev.sluice.testtools.Tools;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsAsyncClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;
import software.amazon.awssdk.services.sqs.model.SqsException;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Queue changes under {@code durability: commit} are acknowledged only once committed, as sends
 * are: the packaged jar runs with a long write window (1.5 s), so that an answer given before its
 * commit would precede it by far, and is killed with SIGKILL right after the last answer. Every
 * acknowledged create, attribute change, tag change, permission change, purge and delete is there
 * after the restart. Under {@code relaxed} the same changes are answered at once.
 */
@Isolated
class DurableQueueChangesIT extends DurableServerIT {
  static final String WINDOW_MILLIS = "1500";

  static Process jar(int port, Path log) throws Exception {
    // A short database lease: a start after an unclean stop waits out one lease before it serves.
    ProcessBuilder pb = ServerJar.logging(log, Map.of("SLUICE_HTTP_PORT", Integer.toString(port), "SLUICE_STORAGE", "postgres",
        "SLUICE_PG_URL", pg.url(), "SLUICE_PG_FLUSH_INTERVAL_MILLIS", WINDOW_MILLIS, "SLUICE_PG_LEASE_MILLIS", "2000"));
    Process p = pb.start();
    QuickstartIT.awaitPort(port, p);
    return p;
  }

  static void all(CompletableFuture<?>... requests) throws Exception {
    CompletableFuture.allOf(requests).get(30, TimeUnit.SECONDS);
  }

  @Test
  void everyAcknowledgedQueueChangeSurvivesKillNine() throws Exception {
    int port = QuickstartIT.freePort();
    Path log = ServerJar.newLog("queue-changes-");
    String base = "http://127.0.0.1:" + port + "/000000000000/";
    String policyAccount = "111122223333";
    Process first = jar(port, log);
    try (SqsAsyncClient sqs = DurableCrashIT.client(port)) {
      // What the changes below start from (under today's code, waiting for the send commits these).
      all(sqs.createQueue(b -> b.queueName("qc-attributes")),
          sqs.createQueue(b -> b.queueName("qc-tags").tags(Map.of("keep", "1", "drop", "2"))),
          sqs.createQueue(b -> b.queueName("qc-permission")),
          sqs.createQueue(b -> b.queueName("qc-unpermitted")),
          sqs.createQueue(b -> b.queueName("qc-purged")),
          sqs.createQueue(b -> b.queueName("qc-deleted")));
      all(sqs.addPermission(b -> b.queueUrl(base + "qc-unpermitted").label("gone")
              .awsAccountIds(policyAccount).actions("SendMessage")),
          sqs.sendMessage(b -> b.queueUrl(base + "qc-purged").messageBody("purged before the crash")));
      // The changes whose acknowledgments are checked, then SIGKILL at once.
      all(sqs.createQueue(b -> b.queueName("qc-created").attributesWithStrings(Map.of("DelaySeconds", "7"))
              .tags(Map.of("born", "late"))),
          sqs.setQueueAttributes(b -> b.queueUrl(base + "qc-attributes")
              .attributesWithStrings(Map.of("VisibilityTimeout", "123", "MessageRetentionPeriod", "7200"))),
          sqs.tagQueue(b -> b.queueUrl(base + "qc-tags").tags(Map.of("added", "3"))),
          sqs.untagQueue(b -> b.queueUrl(base + "qc-tags").tagKeys("drop")),
          sqs.addPermission(b -> b.queueUrl(base + "qc-permission").label("allowed")
              .awsAccountIds(policyAccount).actions("ReceiveMessage")),
          sqs.removePermission(b -> b.queueUrl(base + "qc-unpermitted").label("gone")),
          sqs.purgeQueue(b -> b.queueUrl(base + "qc-purged")),
          sqs.deleteQueue(b -> b.queueUrl(base + "qc-deleted")));
      first.destroyForcibly(); // SIGKILL: no shutdown hook, no flush
      assertTrue(first.waitFor(10, TimeUnit.SECONDS));
    } finally {
      first.destroyForcibly();
    }

    Process second = jar(port, log);
    try (SqsClient sqs = SqsClient.builder().endpointOverride(URI.create("http://127.0.0.1:" + port))
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTEST", "secret")))
        .build()) {
      Map<String, String> created = sqs.getQueueAttributes(b -> b.queueUrl(base + "qc-created")
          .attributeNamesWithStrings("DelaySeconds")).attributesAsStrings();
      assertEquals("7", created.get("DelaySeconds"), "the created queue and its attributes");
      assertEquals(Map.of("born", "late"), sqs.listQueueTags(b -> b.queueUrl(base + "qc-created")).tags());

      Map<String, String> attributes = sqs.getQueueAttributes(b -> b.queueUrl(base + "qc-attributes")
          .attributeNamesWithStrings("VisibilityTimeout", "MessageRetentionPeriod")).attributesAsStrings();
      assertEquals(Map.of("VisibilityTimeout", "123", "MessageRetentionPeriod", "7200"), attributes,
          "SetQueueAttributes");

      assertEquals(Map.of("keep", "1", "added", "3"), sqs.listQueueTags(b -> b.queueUrl(base + "qc-tags")).tags(),
          "TagQueue and UntagQueue");

      String policy = sqs.getQueueAttributes(b -> b.queueUrl(base + "qc-permission")
          .attributeNamesWithStrings("Policy")).attributesAsStrings().get("Policy");
      assertTrue(policy != null && policy.contains("\"allowed\"") && policy.contains(policyAccount),
          "AddPermission: " + policy);
      String removed = sqs.getQueueAttributes(b -> b.queueUrl(base + "qc-unpermitted")
          .attributeNamesWithStrings("Policy")).attributesAsStrings().get("Policy");
      assertTrue(removed == null || !removed.contains("\"gone\""), "RemovePermission: " + removed);

      assertEquals(0, sqs.receiveMessage(b -> b.queueUrl(base + "qc-purged").waitTimeSeconds(1)).messages().size(),
          "PurgeQueue");
      assertThrows(QueueDoesNotExistException.class, () -> sqs.getQueueUrl(b -> b.queueName("qc-deleted")),
          "DeleteQueue");
    } finally {
      second.destroy();
      if (!second.waitFor(15, TimeUnit.SECONDS)) {
        second.destroyForcibly();
      }
    }
    // The second start finds the schema in place, as every start after the first does, and says
    // nothing of it. The writer reporting its lag is expected: that is what a 1.5 s window makes.
    assertEquals(List.of(), QuickstartIT.unexpectedLogLines(log).stream()
        .filter(l -> !l.contains(" WARNING dev.sluice.persistence.PersistenceVerticle - PostgreSQL writes are "))
        .toList());
  }

  @Test
  void underRelaxedDurabilityQueueChangesAreAnsweredAtOnce() throws Exception {
    try (TestServer s = server(Map.of("SLUICE_DURABILITY", "relaxed", "SLUICE_PG_FLUSH_INTERVAL_MILLIS", "3000"));
        SqsClient sqs = s.clientWithoutRetries()) {
      long start = System.nanoTime();
      String url = sqs.createQueue(b -> b.queueName("qc-relaxed")).queueUrl();
      sqs.tagQueue(b -> b.queueUrl(url).tags(Map.of("t", "1")));
      sqs.setQueueAttributes(b -> b.queueUrl(url).attributesWithStrings(Map.of("DelaySeconds", "1")));
      sqs.purgeQueue(b -> b.queueUrl(url));
      sqs.deleteQueue(b -> b.queueUrl(url));
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertTrue(millis < 2000, "five changes answered before one write window passed: " + millis + " ms");
    }
  }

  @Test
  void aQueueChangeThatCannotBeCommittedInTimeFailsRetryably() throws Exception {
    try (TestServer s = server(Map.of("SLUICE_PG_SEND_TIMEOUT_MILLIS", "500"));
        SqsClient sqs = s.clientWithoutRetries()) {
      String url = sqs.createQueue(b -> b.queueName("qc-outage")).queueUrl();
      pg.stopNow();
      try {
        SqsException e = assertThrows(SqsException.class,
            () -> sqs.tagQueue(b -> b.queueUrl(url).tags(Map.of("during", "outage"))));
        assertEquals(503, e.statusCode(), "ServiceUnavailable, as a send that cannot be stored in time");
        e = assertThrows(SqsException.class, () -> sqs.createQueue(b -> b.queueName("qc-outage-new")));
        assertEquals(503, e.statusCode());
      } finally {
        pg.restart();
      }
    }
  }
}
