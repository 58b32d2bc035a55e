package dev.sluice.it;

import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import software.amazon.awssdk.services.sqs.SqsClient;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * One server per test class, started before its first test and stopped after its last, with a
 * synchronous AWS SDK v2 client; test classes use unique queue names so their tests stay
 * independent.
 */
@ResourceLock("SharedServerIT.server")
abstract class SharedServerIT {
  static TestServer server;
  static SqsClient sqs;

  @BeforeAll
  static void start() {
    server = TestServer.start();
    sqs = server.client();
  }

  /** Stops the server, unless a subclass stopped it already (and set it to null). */
  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      sqs.close();
      server.close();
    }
  }

  static String queue(String name, Map<String, String> attributes) {
    return sqs.createQueue(b -> b.queueName(name).attributesWithStrings(attributes)).queueUrl();
  }
}
