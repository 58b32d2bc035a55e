package dev.sluice.push;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import dev.sluice.config.SqsConfig;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;

/**
 * Reads a push request (src/site/markdown/push.md): the members of its body, each checked and
 * refused as the SQS APIs refuse a parameter, and who sent it, from the headers the bridge guard
 * stamped. Stateless; called on the push service's event loop.
 */
final class PushParameters {
  /** A subscribe's {@code "credit"}: every free slot is filled at once (the default)... */
  static final String AUTO_CREDIT = "auto";
  /** ...or only as far as the client granted with {@code sluice.credit}. */
  static final String DEMAND_CREDIT = "demand";

  private PushParameters() {}

  /** The connection a request came through; only the bridges set it. */
  static String connectionOf(Message<?> m) {
    String c = m.headers().get(PushAddresses.CONNECTION_HEADER);
    if (c == null) {
      // Only the bridges set it; a local sender without one is not a subscriber.
      throw new SqsException(ErrorCode.ACCESS_DENIED, "Requests must come through an event-bus bridge.");
    }
    return c;
  }

  static JsonObject body(Message<Object> m) {
    if (m.body() instanceof JsonObject o) {
      return o;
    }
    throw SqsException.invalidParameter("The request body must be a JSON object.");
  }

  /**
   * Who a subscription consumes as: its connection's credential (stamped by the bridge guard), or
   * the default account; in the region its request names, else its credential's, else the default.
   */
  static BridgeCaller callerOf(Message<Object> m, JsonObject body, SqsConfig sqs) {
    String account = m.headers().get(PushAddresses.ACCOUNT_HEADER);
    String connectionRegion = m.headers().get(PushAddresses.REGION_HEADER);
    return new BridgeCaller(account != null ? account : sqs.accountId(),
        region(body, connectionRegion != null ? connectionRegion : sqs.region(), sqs),
        m.headers().get(PushAddresses.ACCESS_KEY_HEADER));
  }

  /** The region a subscription names (one this server serves), else {@code otherwise}. */
  private static String region(JsonObject body, String otherwise, SqsConfig sqs) {
    String region = string(body, "region");
    if (region == null) {
      return otherwise;
    }
    if (!sqs.servesRegionNamed(region)) {
      throw SqsException.invalidValue(region, "region", "This server does not serve that region (sqs.regions).");
    }
    return region;
  }

  static String string(JsonObject body, String name) {
    Object v = body.getValue(name);
    if (v != null && !(v instanceof String)) {
      throw SqsException.invalidValue(v, name, "Must be a string.");
    }
    return (String) v;
  }

  /** Whether a subscribe asks for demand credit rather than auto credit (the default). */
  static boolean demandCredit(JsonObject body) {
    String credit = string(body, "credit");
    if (credit == null || AUTO_CREDIT.equals(credit)) {
      return false;
    }
    if (DEMAND_CREDIT.equals(credit)) {
      return true;
    }
    throw SqsException.invalidValue(credit, "credit", "Must be \"" + AUTO_CREDIT + "\" or \"" + DEMAND_CREDIT + "\".");
  }

  static String handle(JsonObject body) {
    String h = string(body, "receiptHandle");
    if (h == null) {
      throw SqsException.missingParameter("receiptHandle");
    }
    return h;
  }

  /** An integer member within [min, max], or {@code absent} when missing (MissingParameter if null). */
  static int integer(JsonObject body, String name, int min, int max, Integer absent) {
    Object v = body.getValue(name);
    if (v == null) {
      if (absent == null) {
        throw SqsException.missingParameter(name);
      }
      return absent;
    }
    if (!(v instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue())
        || n.longValue() < min || n.longValue() > max) {
      throw SqsException.invalidValue(v, name, "Must be an integer from " + min + " to " + max + ".");
    }
    return n.intValue();
  }
}
