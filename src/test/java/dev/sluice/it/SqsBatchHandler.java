package dev.sluice.it;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A Lambda handler for SQS written as users write one, against AWS's event classes: it reports a
 * record whose body starts with {@code fail} as a batch item failure, throws while a record whose
 * body is {@code throw-once} is on its first receive, and succeeds otherwise. It keeps each event
 * it was given, by queue ARN, so that tests read the batches as the handler saw them.
 */
final class SqsBatchHandler implements RequestHandler<SQSEvent, SQSBatchResponse> {
  private final Map<String, BlockingQueue<List<SQSEvent.SQSMessage>>> events = new ConcurrentHashMap<>();

  @Override
  public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
    List<SQSEvent.SQSMessage> records = event.getRecords();
    events(records.get(0).getEventSourceArn()).add(records);
    List<SQSBatchResponse.BatchItemFailure> failures = new ArrayList<>();
    for (SQSEvent.SQSMessage m : records) {
      if (m.getBody().equals("throw-once") && m.getAttributes().get("ApproximateReceiveCount").equals("1")) {
        throw new IllegalStateException("the handler failed on " + m.getMessageId());
      }
      if (m.getBody().startsWith("fail")) {
        failures.add(new SQSBatchResponse.BatchItemFailure(m.getMessageId()));
      }
    }
    return new SQSBatchResponse(failures);
  }

  /** The next batch from the queue {@code queueArn}, or null when none came within {@code seconds}. */
  List<SQSEvent.SQSMessage> next(String queueArn, long seconds) throws InterruptedException {
    return events(queueArn).poll(seconds, TimeUnit.SECONDS);
  }

  private BlockingQueue<List<SQSEvent.SQSMessage>> events(String queueArn) {
    return events.computeIfAbsent(queueArn, q -> new LinkedBlockingQueue<>());
  }
}
