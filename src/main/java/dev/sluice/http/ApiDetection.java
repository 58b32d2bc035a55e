package dev.sluice.http;

import dev.sluice.protocol.sns.SnsActions;
import dev.sluice.protocol.sns.SnsProtocol;
import dev.sluice.protocol.Headers;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import java.util.Map;
import java.util.Set;

/**
 * Which API a request on the one port is for, SQS or SNS. The first rule that applies wins: the AWS
 * JSON protocol is SQS's (SNS has none); a signature names its service ({@code sqs} or {@code sns},
 * as SDKs sign each API); an unsigned request goes by its {@code Version} (SNS's 2010-03-31, SQS's
 * 2012-11-05), then by an action only one API has; the two actions both have, AddPermission and
 * RemovePermission, by the resource they name (a TopicArn is SNS's). Anything else is SQS's, whose
 * errors then say what is wrong. Stateless.
 */
final class ApiDetection {
  private static final String SNS_SERVICE = "sns";
  private static final Set<String> LINK_ACTIONS = Set.of("ConfirmSubscription", "Unsubscribe");

  private ApiDetection() {}

  /** Whether the request is SNS's by what is known before its body: its signature's service (null: unsigned). */
  static boolean signedForSns(String signedService) {
    return SNS_SERVICE.equals(signedService);
  }

  /**
   * The action of an unsigned SNS link (a SubscriptionConfirmation's SubscribeURL, a
   * notification's UnsubscribeURL) followed: a GET with no signature of any kind whose query's one
   * Action is ConfirmSubscription or Unsubscribe (and whose Version, if any, is SNS's); else null.
   */
  static String unsignedLinkAction(HttpServerRequest req) {
    if (req.method() != HttpMethod.GET || req.getHeader(Headers.AUTHORIZATION) != null
        || req.params().contains("X-Amz-Signature") || req.params().contains("X-Amz-Credential")
        || req.params().getAll("Action").size() != 1) {
      return null;
    }
    String version = req.getParam("Version");
    if (version != null && !version.equals(SnsProtocol.VERSION)) {
      return null;
    }
    String action = req.getParam("Action");
    return LINK_ACTIONS.contains(action) ? action : null;
  }

  /** The ARN an unsigned link names: the account and region it acts in. */
  static String linkArn(HttpServerRequest req, String action) {
    return req.getParam(action.equals("Unsubscribe") ? "SubscriptionArn" : "TopicArn");
  }

  /** Whether an unsigned Query request is SNS's, by its parameters. */
  static boolean unsignedIsSns(Map<String, String> params) {
    String version = params.get("Version");
    if (version != null) {
      return version.equals(SnsProtocol.VERSION);
    }
    String action = params.get("Action");
    if (action == null || !SnsActions.isSnsAction(action)) {
      return false;
    }
    if (action.equals("AddPermission") || action.equals("RemovePermission")) {
      return params.containsKey("TopicArn");
    }
    return true;
  }
}
