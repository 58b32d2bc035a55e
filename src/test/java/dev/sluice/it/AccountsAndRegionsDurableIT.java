package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.persistence.MessageContent;
import dev.sluice.persistence.SchemaMigrations;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Durable mode keeps each queue in its account and region across a restart, and a database written
 * by the schema before accounts and regions (version 2) comes back with its queues, and their
 * messages, in the default account and region.
 */
class AccountsAndRegionsDurableIT extends DurableServerIT {
  static final String CREDENTIALS = "[{\"accessKeyId\":\"AKIDTEAMA\",\"secretAccessKey\":\"a\",\"accountId\":"
      + "\"111111111111\"},{\"accessKeyId\":\"AKIDTEAMB\",\"secretAccessKey\":\"b\",\"accountId\":\"222222222222\"}]";

  static TestServer teams() {
    return server(Map.of("SLUICE_CREDENTIALS", CREDENTIALS, "SLUICE_MANAGEMENT_TOKEN", "off"));
  }

  @Test
  void aRestartKeepsEveryQueueInItsAccountAndRegion() throws Exception {
    record Place(String keyId, String secret, String region, String account) {
      SqsClient client(TestServer s) {
        return AccountsAndRegionsIT.client(s, region, keyId, secret);
      }
    }
    List<Place> places = List.of(new Place("AKIDTEAMA", "a", "us-east-1", "111111111111"),
        new Place("AKIDTEAMA", "a", "us-west-2", "111111111111"),
        new Place("AKIDTEAMB", "b", "us-east-1", "222222222222"));
    try (TestServer first = teams()) {
      for (Place p : places) {
        try (SqsClient sqs = p.client(first)) {
          String url = sqs.createQueue(b -> b.queueName("kept")).queueUrl();
          sqs.sendMessage(b -> b.queueUrl(url).messageBody(p.account() + " in " + p.region()));
        }
      }
    }
    try (TestServer second = teams()) {
      for (Place p : places) {
        try (SqsClient sqs = p.client(second)) {
          String url = second.endpoint + "/" + p.account() + "/kept";
          assertEquals(List.of(url), sqs.listQueues(b -> b.queueNamePrefix("kept")).queueUrls());
          assertEquals("arn:aws:sqs:" + p.region() + ":" + p.account() + ":kept", AccountsAndRegionsIT.arn(sqs, url));
          assertEquals(List.of(p.account() + " in " + p.region()), AccountsAndRegionsIT.bodies(sqs, url));
        }
      }
    }
  }

  @Test
  void aDatabaseOfTheSecondSchemaGivesItsQueuesTheDefaultAccountAndRegion() throws Exception {
    Vertx vertx = Vertx.vertx();
    String url = pg.url().substring(0, pg.url().lastIndexOf('/')) + "/second_schema";
    Pool admin = PgBuilder.pool().connectingTo(PgConnectOptions.fromUri(pg.url())).using(vertx).build();
    Pool old = PgBuilder.pool().connectingTo(PgConnectOptions.fromUri(url)).using(vertx).build();
    try {
      admin.query("CREATE DATABASE second_schema").execute().await(30, TimeUnit.SECONDS);
      // The database as a server of schema version 2 leaves it: scripts V1 and V2 applied and
      // recorded as SchemaMigrations records them, one queue of the single account it had, and a
      // message in it.
      old.query("CREATE TABLE sluice_schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
          + " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())").execute().await(10, TimeUnit.SECONDS);
      for (String script : List.of("V1__queues_and_messages.sql", "V2__database_owner.sql")) {
        old.query(resource("db/migration/" + script)).execute().await(10, TimeUnit.SECONDS);
        old.preparedQuery("INSERT INTO sluice_schema_version (version, name) VALUES ($1, $2)")
            .execute(Tuple.of(Integer.parseInt(script.substring(1, 2)), script)).await(10, TimeUnit.SECONDS);
      }
      long now = System.currentTimeMillis();
      old.preparedQuery("INSERT INTO sluice_queues (id, name, created_at, modified_at, attributes, tags)"
              + " VALUES (42, 'legacy', $1, $1, '{\"VisibilityTimeout\":\"45\"}', '{}')")
          .execute(Tuple.of(now)).await(10, TimeUnit.SECONDS);
      byte[] content = new MessageContent("kept from version 2", Map.of(), null, "AKIDOLD", null, null, null).encode();
      old.preparedQuery("INSERT INTO sluice_messages (queue_id, message_key, message_id, sent_at, sequence_number,"
              + " visible_at, receive_count, first_receive_at, receipt_sequence, content)"
              + " VALUES (42, 1, $1, $2, 0, 0, 0, 0, 0, $3)")
          .execute(Tuple.of(UUID.randomUUID(), now, io.vertx.core.buffer.Buffer.buffer(content)))
          .await(10, TimeUnit.SECONDS);

      try (TestServer server = server(Map.of("SLUICE_PG_URL", url, "SLUICE_SQS_ACCOUNT_ID", "444444444444",
              "SLUICE_SQS_REGION", "eu-west-1"));
          SqsClient eu = AccountsAndRegionsIT.client(server, "eu-west-1", "AKIDANY", "any");
          SqsClient east = AccountsAndRegionsIT.client(server, "us-east-1", "AKIDANY", "any")) {
        String queueUrl = server.endpoint + "/444444444444/legacy";
        assertEquals(List.of(queueUrl), eu.listQueues().queueUrls());
        assertEquals(List.of(), east.listQueues().queueUrls(), "the default region's queue, not every region's");
        assertEquals("arn:aws:sqs:eu-west-1:444444444444:legacy", AccountsAndRegionsIT.arn(eu, queueUrl));
        assertEquals(List.of("kept from version 2"), AccountsAndRegionsIT.bodies(eu, queueUrl));
      }
      List<String> stored = new ArrayList<>();
      for (Row r : old.query("SELECT account_id, region, name FROM sluice_queues").execute()
          .await(10, TimeUnit.SECONDS)) {
        stored.add(r.getString(0) + "/" + r.getString(1) + "/" + r.getString(2));
      }
      assertEquals(List.of("444444444444/eu-west-1/legacy"), stored);
      assertEquals(SchemaMigrations.load().latestVersion(), old.query("SELECT max(version) FROM sluice_schema_version")
          .execute()
          .await(10, TimeUnit.SECONDS).iterator().next().getInteger(0));
    } finally {
      old.close().await(10, TimeUnit.SECONDS);
      admin.close().await(10, TimeUnit.SECONDS);
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  static String resource(String path) throws IOException {
    try (InputStream in = AccountsAndRegionsDurableIT.class.getClassLoader().getResourceAsStream(path)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
