package dev.sluice.access;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The SQS actions a policy can name (Service Authorization Reference: Actions, resources, and
 * condition keys for Amazon SQS) and the one each API call is authorized as. The batch calls have
 * no IAM action of their own: SendMessageBatch is authorized as sqs:SendMessage, and so on (SQS API
 * reference: SendMessageBatch, DeleteMessageBatch, ChangeMessageVisibilityBatch; AWS's AccessDenied
 * for a SendMessageBatch names sqs:sendmessage). Stateless.
 */
public final class IamActions {
  private IamActions() {}

  private static final Set<String> ACTIONS = Set.of(
      "AddPermission", "CancelMessageMoveTask", "ChangeMessageVisibility", "CreateQueue", "DeleteMessage",
      "DeleteQueue", "GetQueueAttributes", "GetQueueUrl", "ListDeadLetterSourceQueues", "ListMessageMoveTasks",
      "ListQueueTags", "ListQueues", "PurgeQueue", "ReceiveMessage", "RemovePermission", "SendMessage",
      "SetQueueAttributes", "StartMessageMoveTask", "TagQueue", "UntagQueue");

  /**
   * What only the queue's own account may do, whatever a queue policy grants (SQS Developer Guide:
   * Limitations of Amazon SQS custom policies, "Cross-account permissions don't apply to the
   * following actions"): managing the queue and its permissions, listing, and move tasks.
   */
  private static final Set<String> OWNER_ONLY = Set.of(
      "AddPermission", "CancelMessageMoveTask", "CreateQueue", "DeleteQueue", "ListMessageMoveTasks", "ListQueues",
      "ListQueueTags", "RemovePermission", "SetQueueAttributes", "StartMessageMoveTask", "TagQueue", "UntagQueue");

  private static final Map<String, String> BATCHES = Map.of(
      "SendMessageBatch", "SendMessage",
      "DeleteMessageBatch", "DeleteMessage",
      "ChangeMessageVisibilityBatch", "ChangeMessageVisibility");

  /** Lower-cased: policies name actions case-insensitively (IAM User Guide: Action element). */
  private static final Set<String> NAMEABLE = Stream.concat(ACTIONS.stream(), BATCHES.keySet().stream())
      .map(a -> a.toLowerCase(Locale.ROOT)).collect(Collectors.toUnmodifiableSet());

  /**
   * The IAM action (without the {@code sqs:} prefix) an SQS API action is authorized as, e.g.
   * {@code SendMessageBatch} → {@code SendMessage}. Throws IllegalArgumentException for a name that
   * is not an SQS API action: the caller passes names from its own action table, never user input.
   */
  public static String authorizedAs(String apiAction) {
    String single = BATCHES.getOrDefault(apiAction, apiAction);
    if (!ACTIONS.contains(single)) {
      throw new IllegalArgumentException("not an SQS API action: " + apiAction);
    }
    return single;
  }

  /**
   * Whether a policy may name this action. The batch names are accepted too, as many published
   * policies list them, though no request is ever authorized as one.
   */
  static boolean isNameable(String action) {
    return NAMEABLE.contains(action.toLowerCase(Locale.ROOT));
  }

  /** Whether a queue policy can grant this IAM action to another account, or to a service. */
  static boolean grantableAcrossAccounts(String action) {
    return !OWNER_ONLY.contains(action);
  }

  /** The lower-case form AWS's AccessDenied message names an action in, e.g. {@code sqs:sendmessage}. */
  static String messageForm(String action) {
    return "sqs:" + action.toLowerCase(Locale.ROOT);
  }
}
