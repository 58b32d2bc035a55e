package dev.sluice.outbound;

/**
 * How one outbound request ended: the answer's status, or 0 and why no answer came (a timeout, a
 * refused or failed connection, an address not allowed, too many requests waiting).
 */
public record OutboundResult(int status, String failure) {
  static OutboundResult failed(String why) {
    return new OutboundResult(0, why);
  }

  /** A 2xx answer. */
  public boolean delivered() {
    return status >= 200 && status < 300;
  }

  /**
   * A 4xx answer other than 429: the endpoint refused the request itself, and would refuse it again
   * (a client-side error, which SNS does not retry).
   */
  public boolean refused() {
    return status >= 400 && status < 500 && status != 429;
  }

  /** The error SNS's dead-letter messages name: the status, or what kept an answer from coming. */
  public String describe() {
    return status != 0 ? "HTTP status " + status : failure;
  }
}
