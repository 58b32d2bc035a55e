package dev.sluice.topics;

import dev.sluice.api.QueueKey;
import dev.sluice.api.topics.SnsException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Set;

/**
 * What Subscribe may deliver to (SNS API reference: Subscribe, Protocol and Endpoint): Sluice
 * delivers to SQS queues, named by their ARN, and to HTTP and HTTPS URLs; the other protocols of
 * SNS are refused, each with AWS's text for a protocol it does not know, or with what Sluice does
 * not offer. Stateless.
 */
public final class SubscriptionEndpoints {
  public static final String SQS = "sqs";
  public static final String HTTP = "http";
  public static final String HTTPS = "https";
  /** The longest URL an HTTP subscription may deliver to. */
  static final int MAX_URL_LENGTH = 2048;
  /** SNS's protocols Sluice does not deliver to. */
  private static final Set<String> NOT_SERVED = Set.of("email", "email-json", "sms", "application", "lambda",
      "firehose");

  private SubscriptionEndpoints() {}

  public static boolean isHttp(String protocol) {
    return HTTP.equals(protocol) || HTTPS.equals(protocol);
  }

  /**
   * Checks what a Subscribe names against its topic; answers the queue of an SQS subscription, null
   * for an HTTP/HTTPS one. A FIFO queue takes only a FIFO topic's messages (AWS-recorded text,
   * "Invalid parameter: " twice as AWS writes it); a FIFO topic delivers to SQS queues only, as
   * AWS's FIFO topics do.
   */
  static QueueKey check(String protocol, String endpoint, boolean fifoTopic) {
    if (protocol == null) {
      throw SnsException.missing("protocol");
    }
    if (isHttp(protocol)) {
      if (fifoTopic) {
        throw SnsException.invalidParameter("Protocol", "FIFO topics deliver to SQS queues only");
      }
      checkUrl(protocol, endpoint);
      return null;
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

  /** An HTTP subscription's endpoint: an absolute URL of the protocol's scheme, with a host. */
  private static void checkUrl(String protocol, String endpoint) {
    URI uri = null;
    try {
      uri = endpoint == null || endpoint.length() > MAX_URL_LENGTH ? null : new URI(endpoint);
    } catch (URISyntaxException e) {
      // refused below
    }
    if (uri == null || uri.getScheme() == null || !uri.getScheme().equalsIgnoreCase(protocol) || uri.getHost() == null
        || uri.getHost().isEmpty()) {
      throw SnsException.invalidParameter("Endpoint must match the specified protocol");
    }
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
