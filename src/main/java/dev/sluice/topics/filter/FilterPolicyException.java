package dev.sluice.topics.filter;

/**
 * A filter policy (or scope) AWS would refuse. The message is AWS's reason, such as {@code
 * FilterPolicy: Filter policy is too complex}; AWS wraps it differently per call, so the API layer
 * picks {@link #subscribeMessage()} or {@link #setAttributesMessage()} for its InvalidParameter
 * error. AWS also appends the JSON parser's position ({@code \n at [Source: ...]}) to some reasons;
 * that suffix is not reproduced.
 */
public final class FilterPolicyException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public FilterPolicyException(String reason) {
    super(reason);
  }

  /** The text of an InvalidParameter error from Subscribe, where the policy came in Attributes. */
  public String subscribeMessage() {
    return "Invalid parameter: Attributes Reason: " + getMessage();
  }

  /** The text of an InvalidParameter error from SetSubscriptionAttributes. */
  public String setAttributesMessage() {
    return "Invalid parameter: " + getMessage();
  }

  static FilterPolicyException policy(String detail) {
    return new FilterPolicyException("FilterPolicy: " + detail);
  }
}
