package dev.sluice.access;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;

/**
 * A denied request, with what AWS's AccessDenied names: who, which action, which queue and why.
 * SQS words it differently per protocol (SQS Developer Guide: Troubleshoot access denied errors):
 * the AWS JSON protocol names the principal, the action and the reason; the Query protocol only
 * the resource's URL. Both are error code {@link ErrorCode#ACCESS_DENIED}. Immutable.
 *
 * @param principalArn the requester, as {@link Requester#principalArn()}
 * @param action the IAM action, e.g. {@code SendMessage} for a SendMessageBatch
 * @param resourceArn the queue's ARN
 */
public record AccessDenial(String principalArn, String action, String resourceArn, DenialReason reason) {
  /**
   * The JSON protocol's message, e.g. {@code User: arn:aws:iam::111122223333:user/x is not
   * authorized to perform: sqs:sendmessage on resource: arn:aws:sqs:us-east-1:444455556666:q
   * because no resource-based policy allows the sqs:sendmessage action}. AWS writes the action in
   * lower case and ends without a period (answers quoted in microsoft/aspire#3333 and
   * aws/serverless-application-model#3633).
   */
  public String jsonMessage() {
    String a = IamActions.messageForm(action);
    return "User: " + principalArn + " is not authorized to perform: " + a + " on resource: " + resourceArn + " "
        + reason.phrase(a);
  }

  /**
   * The Query protocol's message: {@code Access to the resource <url> is denied.}, where the URL is
   * the queue URL of the request (an SNS delivery to https://sqs.us-west-2.amazonaws.com/<account>/<queue>
   * quoted in MassTransit/MassTransit#1525), or the endpoint's root, ending in "/", for a request
   * that names no queue (SQS Developer Guide: Troubleshoot access denied errors).
   */
  public String queryMessage(String resourceUrl) {
    return "Access to the resource " + resourceUrl + " is denied.";
  }

  /**
   * The error to answer with, in both wordings: each protocol's error renderer picks its own.
   * {@code resourceUrl} is the queue URL of the request, or the endpoint's root for a request
   * that names no queue.
   */
  public SqsException error(String resourceUrl) {
    return new SqsException(ErrorCode.ACCESS_DENIED, jsonMessage(), queryMessage(resourceUrl));
  }
}
