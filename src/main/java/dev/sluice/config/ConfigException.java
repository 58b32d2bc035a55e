package dev.sluice.config;

/** Invalid configuration: the message names the key (and its environment variable). */
public final class ConfigException extends RuntimeException {
  public ConfigException(String message) {
    super(message);
  }
}
