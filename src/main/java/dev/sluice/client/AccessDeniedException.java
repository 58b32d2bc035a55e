package dev.sluice.client;

/** The connection's credential may not do what was asked (a presigned URL's permissions, or a queue policy). Terminal. */
public class AccessDeniedException extends SluiceClientException {
  private static final long serialVersionUID = 1L;

  public AccessDeniedException(String code, int status, String message) {
    super(code, status, message);
  }
}
