package dev.sluice.topics;

import dev.sluice.api.QueueKey;
import dev.sluice.api.topics.SnsException;
import java.util.Set;

/**
 * What Subscribe may deliver to (SNS API reference: Subscribe, Protocol and Endpoint): Sluice
 * delivers to SQS queues, named by their ARN; the other protocols of SNS are refused, each with
 * AWS's text for a protocol it does not know, or with what Sluice does not offer. Stateless.
 */
public final class SubscriptionEndpoints {
  public static final String SQS = "sqs";
  /** SNS's protocols Sluice does not deliver to (yet: http and https come with HTTP delivery). */
  private static final Set<String> NOT_SERVED = Set.of("http", "https", "email", "email-json", "sms", "application",
      "lambda", "firehose");

  private SubscriptionEndpoints() {}

  /**
   * The queue an SQS subscription delivers to, checked against its topic: a FIFO queue takes only a
   * FIFO topic's messages (AWS-recorded text, "Invalid parameter: " twice as AWS writes it).
   */
  static QueueKey queueOf(String protocol, String endpoint, boolean fifoTopic) {
    if (protocol == null) {
      throw SnsException.missing("protocol");
    }
    if (!protocol.equals(SQS)) {
      if (NOT_SERVED.contains(protocol)) {
        throw SnsException.invalidParameter("Protocol " + protocol + " is not supported by Sluice");
      }
      throw SnsException.invalidParameter("Amazon SNS does not support this protocol string: " + protocol);
    }
    QueueKey queue = endpoint == null ? null : queueArn(endpoint);
    if (queue == null) {
      throw SnsException.invalidParameter("SQS endpoint ARN");
    }
    if (!fifoTopic && queue.name().endsWith(".fifo")) {
      throw SnsException.invalidParameter("Invalid parameter: Endpoint Reason: FIFO SQS Queues can not be subscribed"
          + " to standard SNS topics");
    }
    return queue;
  }

  /** The queue an SQS ARN names, or null when it is not one. */
  public static QueueKey queueArn(String arn) {
    String[] p = arn.split(":", -1);
    if (p.length != 6 || !p[0].equals("arn") || !p[1].startsWith("aws") || !p[2].equals("sqs") || p[3].isEmpty()
        || p[4].length() != 12 || !p[4].chars().allMatch(c -> c >= '0' && c <= '9') || p[5].isEmpty()) {
      return null;
    }
    return new QueueKey(p[4], p[3], p[5]);
  }
}
