package dev.sluice.client;

/** The server refused a request's parameters (for example a prefetch over its {@code push.maxPrefetch}, or an unknown region). Terminal. */
public class InvalidParameterException extends SluiceClientException {
  private static final long serialVersionUID = 1L;

  public InvalidParameterException(String code, int status, String message) {
    super(code, status, message);
  }
}
