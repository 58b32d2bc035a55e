package dev.sluice.client;

/**
 * The server refused the connection's credentials: the WebSocket upgrade was answered 401 or 403
 * (token, presigned URL or Origin), or the TCP bridge refused a frame for its token and closed the
 * connection before answering anything. Terminal: every subscription of the client fails with it.
 */
public class UnauthorizedException extends SluiceClientException {
  private static final long serialVersionUID = 1L;

  public UnauthorizedException(int status, String message) {
    super("Unauthorized", status, message);
  }
}
