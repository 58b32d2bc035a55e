package dev.sluice.outbound;

/**
 * How one outbound request ended: the answer's status, or 0 and why no answer came (a failed or
 * refused connection, a timeout, an address not allowed, too many requests waiting); the answer's
 * body when the request asked for it to be read, and its {@code X-Amz-Function-Error} header (a
 * Lambda runtime's way of saying the function failed), or null.
 *
 * @param timedOut no answer (or not all of its body) came within the request's time
 * @param notAllowed the endpoint's address is not one requests may go to
 * @param tooLarge the answer's body was larger than the request would read
 */
public record OutboundResult(int status, String failure, boolean timedOut, boolean notAllowed, boolean tooLarge,
    String body, String functionError) {

  static OutboundResult failed(String why) {
    return new OutboundResult(0, why, false, false, false, null, null);
  }

  static OutboundResult timedOut(String why) {
    return new OutboundResult(0, why, true, false, false, null, null);
  }

  static OutboundResult notAllowed(String why) {
    return new OutboundResult(0, why, false, true, false, null, null);
  }

  static OutboundResult answered(int status, String body, String functionError) {
    return new OutboundResult(status, null, false, false, false, body, functionError);
  }

  static OutboundResult tooLarge(int status) {
    return new OutboundResult(status, "the answer's body is larger than it may be", false, false, true, null, null);
  }

  /** A 2xx answer. */
  public boolean delivered() {
    return status >= 200 && status < 300;
  }

  /**
   * A 4xx answer other than 429: the endpoint refused the request itself, and would refuse it again
   * (a client-side error, which SNS does not retry).
   */
  public boolean clientError() {
    return status >= 400 && status < 500 && status != 429;
  }

  /** The error SNS's dead-letter messages name: the status, or what kept an answer from coming. */
  public String describe() {
    return status != 0 && !tooLarge ? "HTTP status " + status : failure;
  }
}
