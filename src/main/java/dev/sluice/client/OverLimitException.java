package dev.sluice.client;

/**
 * Too many subscriptions: a client holds at most {@value SluiceClient#MAX_SUBSCRIPTIONS} (the
 * server's limit per connection), checked before anything is sent. Terminal for that subscription.
 */
public class OverLimitException extends SluiceClientException {
  private static final long serialVersionUID = 1L;

  public OverLimitException(String code, int status, String message) {
    super(code, status, message);
  }
}
