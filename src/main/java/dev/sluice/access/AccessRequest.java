package dev.sluice.access;

import java.util.Objects;

/**
 * One access question: may this requester perform this SQS API action on this queue, given the
 * queue's policy and the request's context? Immutable.
 *
 * @param apiAction the SQS API action as called, e.g. {@code SendMessageBatch}
 * @param queueArn the queue's ARN, whose account is the queue's owner; for ListQueues and
 *     CreateQueue, the ARN of the queue listed or to be created
 * @param queuePolicy the queue's parsed Policy, or null when it has none
 * @param context aws:SourceArn and aws:SourceAccount, {@link RequestContext#NONE} for a direct call
 */
public record AccessRequest(
    Requester requester, String apiAction, String queueArn, PolicyDocument queuePolicy, RequestContext context) {
  public AccessRequest {
    Objects.requireNonNull(requester, "requester");
    Objects.requireNonNull(apiAction, "apiAction");
    if (Arns.accountOf(queueArn) == null) {
      throw new IllegalArgumentException("not a queue ARN: " + queueArn);
    }
    context = context == null ? RequestContext.NONE : context;
  }
}
