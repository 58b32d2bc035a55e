package dev.sluice.access;

/**
 * The request's values that conditions can test: the ARN and account of the resource a service
 * acts for (an SNS topic delivering to a queue, say), each absent for a direct call (IAM User
 * Guide: AWS global condition context keys, aws:SourceArn and aws:SourceAccount). Immutable.
 */
public record RequestContext(String sourceArn, String sourceAccount) {
  /** A direct call: no source resource. */
  public static final RequestContext NONE = new RequestContext(null, null);
}
