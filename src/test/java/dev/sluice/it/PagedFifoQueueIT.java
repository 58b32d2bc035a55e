package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.TallyCheck;
import dev.sluice.testtools.ThrowawayPostgres;
import dev.sluice.testtools.Tool;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * {@link FifoQueueIT}'s cases on a durable server whose queues keep a head window of 3 messages
 * (design step 6): FIFO groups, locks, deduplication and sequence numbers behave the same when most
 * of a FIFO queue is in PostgreSQL only and its groups continue through page reads. Two cases are
 * restated for what paging changes on purpose: a receive looks for messages among the first W only
 * (design §2.12, AWS's own rule with its 120,000 replaced by W), and a short poll answers from
 * memory while a page is on its way (§2.6).
 */
@NeedsTools(Tool.POSTGRESQL)
class PagedFifoQueueIT extends FifoQueueIT {
  static ThrowawayPostgres pg;

  /**
   * Replaces the in-memory server {@link SharedServerIT#start} started, and the asynchronous client
   * {@link FifoQueueIT#startAsyncClient} opened on it (both run first), with a paged one.
   */
  @BeforeAll
  static void startPaged() throws Exception {
    async.close();
    sqs.close();
    server.close();
    pg = ThrowawayPostgres.start();
    server = TestServer.start(Map.of("SLUICE_STORAGE", "postgres", "SLUICE_PG_URL", pg.url(),
        "SLUICE_PG_HEAD_WINDOW_MESSAGES", "3"));
    sqs = server.client();
    async = server.asyncClient(4);
  }

  /**
   * Runs before {@link FifoQueueIT#stopAsyncClient} (which closes the asynchronous client) and
   * {@link SharedServerIT#stop}, which then has nothing left to stop.
   */
  @AfterAll
  static void stopPaged() throws Exception {
    sqs.close();
    server.close();
    server = null;
    TallyCheck.assertExact(pg.url());
    pg.close();
  }

  /**
   * As in {@link FifoQueueIT}, except that the third receive waits: group3-m1 is beyond the window,
   * and the page that brings it is asked for once the head runs low (after the second receive), so
   * a short poll at once may come back before it (§2.6: AWS's short polls may also miss messages). A
   * long poll waits for the page.
   */
  @Test
  @Override
  void singleReceivesTakeTheFirstMessageOfEachGroupInTurn() {
    String url = fifo("divide.fifo", Map.of());
    send(url, "divide-group1", "group1-m1");
    send(url, "divide-group1", "group1-m2");
    send(url, "divide-group2", "group2-m1");
    send(url, "divide-group3", "group3-m1");
    List<String> got = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      List<Message> one = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(1).visibilityTimeout(30)
          .waitTimeSeconds(5)).messages();
      assertEquals(1, one.size(), "receive " + (i + 1) + " after " + got);
      got.add(one.get(0).body());
    }
    assertEquals(List.of("group1-m1", "group2-m1", "group3-m1"), got);
    assertTrue(receive(url, 1, 30).isEmpty(), "group1-m2 is blocked by group1-m1");
  }

  /**
   * {@link FifoQueueIT}'s g1-m3 is the fourth message, beyond the window of 3: a receive fills from
   * g1's messages among the first three, then from g2 (§2.12); g1-m3 follows once g1 is free.
   */
  @Test
  @Override
  void aReceiveFillsFromOneGroupFirstInSendOrder() {
    String url = fifo("group-first.fifo", Map.of());
    send(url, "g1", "g1-m1");
    send(url, "g2", "g2-m1");
    send(url, "g1", "g1-m2");
    send(url, "g1", "g1-m3");
    List<Message> first = receive(url, 10, 30);
    assertEquals(List.of("g1-m1", "g1-m2", "g2-m1"), bodies(first));
    assertTrue(receive(url, 10, 30).isEmpty(), "g1-m3 waits behind g1's messages in flight");
    first.forEach(m -> sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(m.receiptHandle())));
    assertEquals(List.of("g1-m3"), bodies(sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)
        .waitTimeSeconds(5)).messages()));
  }
}
