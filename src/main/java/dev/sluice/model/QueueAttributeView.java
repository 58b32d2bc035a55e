package dev.sluice.model;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Renders GetQueueAttributes: stored attributes plus the computed, read-only ones (AWS API reference:
 * GetQueueAttributes).
 */
final class QueueAttributeView {
  private QueueAttributeView() {}

  private static final Set<String> KNOWN =
      Set.of(
          QueueAttributes.DELAY_SECONDS,
          QueueAttributes.MAXIMUM_MESSAGE_SIZE,
          QueueAttributes.MESSAGE_RETENTION_PERIOD,
          QueueAttributes.RECEIVE_MESSAGE_WAIT_TIME_SECONDS,
          QueueAttributes.VISIBILITY_TIMEOUT,
          QueueAttributes.POLICY,
          QueueAttributes.FIFO_QUEUE,
          QueueAttributes.CONTENT_BASED_DEDUPLICATION,
          QueueAttributes.DEDUPLICATION_SCOPE,
          QueueAttributes.FIFO_THROUGHPUT_LIMIT,
          QueueAttributes.KMS_MASTER_KEY_ID,
          QueueAttributes.KMS_DATA_KEY_REUSE_PERIOD_SECONDS,
          QueueAttributes.SQS_MANAGED_SSE_ENABLED,
          RedrivePolicy.NAME,
          RedriveAllowPolicy.NAME);

  static Map<String, String> render(QueueState q, List<String> names, long nowMillis) {
    Map<String, String> out = new TreeMap<>();
    if (names == null || names.isEmpty()) {
      return out;
    }
    for (String n : names) {
      if (!n.equals("All") && !KNOWN.contains(n) && !QueueAttributes.READ_ONLY.contains(n)) {
        throw new SqsException(ErrorCode.INVALID_ATTRIBUTE_NAME, "Unknown Attribute " + n + ".");
      }
    }
    boolean all = names.contains("All");
    for (String n : all ? allNames(q) : names) {
      String v = value(q, n, nowMillis);
      if (v != null) {
        out.put(n, v);
      }
    }
    return out;
  }

  private static Iterable<String> allNames(QueueState q) {
    TreeMap<String, String> names = new TreeMap<>();
    for (String n : KNOWN) {
      names.put(n, n);
    }
    for (String n : QueueAttributes.READ_ONLY) {
      names.put(n, n);
    }
    return names.keySet();
  }

  private static String value(QueueState q, String name, long nowMillis) {
    QueueMetadata md = q.metadata();
    return switch (name) {
      case "ApproximateNumberOfMessages" -> Integer.toString(q.approximateNumberOfMessages(nowMillis));
      case "ApproximateNumberOfMessagesNotVisible" -> Integer.toString(q.approximateNumberOfMessagesNotVisible());
      case "ApproximateNumberOfMessagesDelayed" -> Integer.toString(q.approximateNumberOfMessagesDelayed(nowMillis));
      // Timestamps are epoch seconds here, unlike message timestamps (AWS API reference: SetQueueAttributes).
      case "CreatedTimestamp" -> Long.toString(md.createdAtMillis() / 1000);
      case "LastModifiedTimestamp" -> Long.toString(md.lastModifiedAtMillis() / 1000);
      case "QueueArn" -> md.arn();
      default -> md.attributes().shown(name);
    };
  }
}
