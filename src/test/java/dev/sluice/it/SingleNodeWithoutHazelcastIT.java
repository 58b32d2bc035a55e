package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * With cluster mode off, Hazelcast stays dormant although its jar is on the class path (design
 * page cluster.md §2.21, R17): a server started and used in memory mode creates no {@code hz.*}
 * thread, which every Hazelcast instance starts dozens of. Compared with the threads that ran
 * before, since other test classes in this JVM may have run a cluster.
 */
@Isolated
class SingleNodeWithoutHazelcastIT {
  @Test
  void aMemoryModeServerStartsNoHazelcastThread() throws Exception {
    Set<Thread> before = Thread.getAllStackTraces().keySet();
    try (TestServer server = TestServer.start(); SqsClient sqs = server.client()) {
      String url = sqs.createQueue(b -> b.queueName("alone")).queueUrl();
      sqs.sendMessage(b -> b.queueUrl(url).messageBody("no cluster here"));
      assertEquals("no cluster here", sqs.receiveMessage(b -> b.queueUrl(url)).messages().get(0).body());
      Set<Thread> started = new HashSet<>(Thread.getAllStackTraces().keySet());
      started.removeAll(before);
      List<String> hazelcast = started.stream().map(Thread::getName).filter(n -> n.startsWith("hz.")).sorted().toList();
      assertEquals(List.of(), hazelcast, "Hazelcast threads of a single-node server");
    }
  }
}
