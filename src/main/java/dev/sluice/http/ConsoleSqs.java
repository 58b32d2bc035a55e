package dev.sluice.http;

import dev.sluice.api.Caller;
import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import dev.sluice.auth.Identity;
import dev.sluice.config.SqsConfig;
import dev.sluice.protocol.Headers;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * {@code POST /console/api/sqs/{region}} (design/console.md §2.6): one SQS action in the AWS JSON
 * protocol, run exactly as a signed SDK call is ({@link SqsApiHandler#serveJson}: same limits,
 * validation, errors and permission check), as the operator: the default account (sqs.accountId)
 * in {@code region}. So nothing of SQS is re-implemented for the console. With one shared token,
 * the log is the audit trail: every action that changes something is logged at INFO, with the queue
 * it names, once its body is read. Stateless.
 */
final class ConsoleSqs implements Handler<RoutingContext> {
  private static final System.Logger LOG = System.getLogger(ConsoleSqs.class.getName());
  private static final String TARGET_PREFIX = "AmazonSQS.";
  /** An action's name as SQS spells them; anything else is logged as unknown, not as sent. */
  private static final Pattern ACTION = Pattern.compile("[A-Za-z]{1,64}");

  private final SqsApiHandler sqs;
  private final Callers callers;
  private final SqsConfig config;

  ConsoleSqs(SqsApiHandler sqs, Callers callers, SqsConfig config) {
    this.sqs = sqs;
    this.callers = callers;
    this.config = config;
  }

  @Override
  public void handle(RoutingContext ctx) {
    long start = System.nanoTime();
    HttpServerRequest req = ctx.request();
    String region = ctx.pathParam("region");
    if (!config.servesRegionNamed(region)) {
      ConsoleErrors.render(req, 400, ConsoleErrors.INVALID_PARAMETER_VALUE, "The region must be one this server"
          + " serves, named as AWS names regions (us-east-1).");
      return;
    }
    String target = req.getHeader(Headers.X_AMZ_TARGET);
    Caller operator = callers.ofOperator(req, new Identity(null, config.accountId(), region));
    if (target == null || !target.startsWith(TARGET_PREFIX)) {
      // Refused as the JSON protocol refuses it, before the body is read (SNS is not served here).
      sqs.refuseJson(req, target, new SqsException(ErrorCode.UNSUPPORTED_OPERATION,
          "The X-Amz-Target header must name an SQS action (AmazonSQS.<Action>)."), operator, start);
      return;
    }
    String action = target.substring(TARGET_PREFIX.length());
    Consumer<Buffer> audit = !changesSomething(action) ? null : body -> LOG.log(System.Logger.Level.INFO,
        "console: " + (ACTION.matcher(action).matches() ? target : "an unknown action") + " " + region + " "
            + queueOf(body) + " from " + req.remoteAddress().hostAddress());
    sqs.serveJson(req, target, operator, null, start, audit);
  }

  /**
   * The queue a request names, for the audit line: its QueueUrl, else its QueueName, cut to 256
   * characters of printable ASCII (it is the client's text); "-" when it names none.
   */
  static String queueOf(Buffer body) {
    String queue;
    try {
      JsonObject request = new JsonObject(body);
      queue = request.getValue("QueueUrl") instanceof String url ? url
          : request.getValue("QueueName") instanceof String name ? name : "-";
    } catch (RuntimeException notJson) {
      queue = "-";
    }
    String printable = queue.replaceAll("[^\\x21-\\x7e]", "?");
    return printable.length() > 256 ? printable.substring(0, 256) + "…" : printable;
  }

  /** Every action but the reading ones; an unknown name too, which the protocol then refuses. */
  static boolean changesSomething(String action) {
    return !action.startsWith("Get") && !action.startsWith("List") && !action.equals("ReceiveMessage");
  }
}
