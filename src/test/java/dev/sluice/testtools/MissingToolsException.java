package dev.sluice.testtools;

/** Some tests need programs that are not installed; the message says which and how to install them. */
public final class MissingToolsException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public MissingToolsException(String message) {
    super(message, null, false, false);
  }
}
