package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.SqsException;

/** Input that is not what it claims to be is refused with an SQS error, never taken silently. */
class InputHygieneIT extends SharedServerIT {

  @Test
  void aGarbageNextTokenIsInvalidParameterValue() {
    String dlq = sqs.createQueue(b -> b.queueName("hygiene-dlq")).queueUrl();
    for (String garbage : new String[] {"garbage", "%%%", "bm90IGEgcXVldWU"}) {
      SqsException e = assertThrows(SqsException.class,
          () -> sqs.listQueues(b -> b.maxResults(1).nextToken(garbage)), garbage);
      assertEquals("InvalidParameterValue", e.awsErrorDetails().errorCode(), garbage);
      assertEquals("Invalid NextToken value.", e.awsErrorDetails().errorMessage());
      e = assertThrows(SqsException.class,
          () -> sqs.listDeadLetterSourceQueues(b -> b.queueUrl(dlq).maxResults(1).nextToken(garbage)), garbage);
      assertEquals("InvalidParameterValue", e.awsErrorDetails().errorCode(), garbage);
    }
  }

  /** The JSON, Query and chunked requests below each declare more body than they send, then hang up. */
  static final List<String> HALF_REQUESTS = List.of(
      "POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: AmazonSQS.ListQueues\r\n"
          + "Content-Type: application/x-amz-json-1.0\r\nContent-Length: 1000\r\n\r\n{\"QueueNamePre",
      "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
          + "Content-Length: 1000\r\n\r\nAction=ListQueues&QueueNamePre",
      "POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: AmazonSQS.ListQueues\r\n"
          + "Content-Type: application/x-amz-json-1.0\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"Que\r\n");

  @Test
  void aClientHangingUpMidRequestIsNoInternalFailure() throws Exception {
    Logger failures = Logger.getLogger("dev.sluice.protocol.Failures");
    List<LogRecord> records = new CopyOnWriteArrayList<>();
    Handler capture = new Handler() {
      @Override
      public void publish(LogRecord r) {
        records.add(r);
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    Level before = failures.getLevel();
    failures.setLevel(Level.ALL);
    failures.addHandler(capture);
    try {
      for (String half : HALF_REQUESTS) {
        try (Socket socket = new Socket("127.0.0.1", server.endpoint.getPort())) {
          OutputStream out = socket.getOutputStream();
          out.write(half.getBytes(StandardCharsets.UTF_8));
          out.flush();
          Thread.sleep(100); // the server has started reading the body
        }
      }
      long end = System.currentTimeMillis() + 5000;
      while (records.size() < HALF_REQUESTS.size() && System.currentTimeMillis() < end) {
        Thread.sleep(20);
      }
      Thread.sleep(200); // nothing more comes
      assertEquals(List.of(), records.stream().filter(r -> r.getLevel().intValue() > Level.FINE.intValue())
          .map(r -> r.getLevel() + " " + r.getMessage() + " " + r.getThrown()).toList(), "nothing above DEBUG");
      assertEquals(HALF_REQUESTS.size(), records.size(), "each hang-up is logged at DEBUG");
      for (LogRecord r : records) {
        assertTrue(r.getThrown() == null, "no stack trace");
      }
      assertEquals(List.of(), sqs.listQueues(b -> b.queueNamePrefix("nothing-")).queueUrls(), "still serving");
    } finally {
      failures.removeHandler(capture);
      failures.setLevel(before);
    }
  }
}
