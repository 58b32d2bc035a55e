package dev.sluice.access;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;

/**
 * Why a policy document was refused, with a reason a person can act on ({@link #getMessage()}).
 * Thrown while parsing; a value, never a bug, so it carries no stack trace. The configuration
 * loader shows the reason as it is; the Policy attribute answers with {@link #asAttributeError()}.
 */
public final class PolicyException extends RuntimeException {
  /** What kind of refusal: it decides the SQS error the Policy attribute answers with. */
  public enum Kind {
    /** AWS refuses this document too. */
    INVALID,
    /** Valid for AWS, but Sluice cannot evaluate it (a condition key or operator it does not know). */
    UNSUPPORTED,
    /** Over one of SQS's policy quotas; the message is AWS's OverLimit text. */
    OVER_LIMIT
  }

  private final Kind kind;

  PolicyException(Kind kind, String message) {
    super(message, null, false, false);
    this.kind = kind;
  }

  static PolicyException invalid(String message) {
    return new PolicyException(Kind.INVALID, message);
  }

  static PolicyException unsupported(String message) {
    return new PolicyException(Kind.UNSUPPORTED, message);
  }

  static PolicyException overLimit(String message) {
    return new PolicyException(Kind.OVER_LIMIT, message);
  }

  public Kind kind() {
    return kind;
  }

  /**
   * The error SetQueueAttributes and CreateQueue answer for a refused Policy. AWS gives no reason
   * for a document it cannot accept, only InvalidAttributeValue "Invalid value for the parameter
   * Policy." (seen in SQS answers quoted in hashicorp/terraform-provider-aws#42209, aws/aws-cdk#15602
   * and cloud-custodian#1816), so neither does Sluice; a document AWS would take but Sluice cannot
   * evaluate says why, so it is never mistaken for a typo. Quotas answer OverLimit with AWS's text.
   */
  public SqsException asAttributeError() {
    return switch (kind) {
      case INVALID -> new SqsException(ErrorCode.INVALID_ATTRIBUTE_VALUE, "Invalid value for the parameter Policy.");
      case UNSUPPORTED -> new SqsException(
          ErrorCode.INVALID_ATTRIBUTE_VALUE, "Invalid value for the parameter Policy. Reason: " + getMessage());
      case OVER_LIMIT -> new SqsException(ErrorCode.OVER_LIMIT, getMessage());
    };
  }
}
