package dev.sluice.client;

import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * One message attribute: its data type ({@code String}, {@code Number}, {@code Binary}, or one of
 * those with a custom suffix) and its value, a string or bytes. Immutable.
 */
public final class MessageAttribute {
  private final String dataType;
  private final String stringValue;
  private final byte[] binaryValue;

  private MessageAttribute(String dataType, String stringValue, byte[] binaryValue) {
    this.dataType = Objects.requireNonNull(dataType, "dataType");
    this.stringValue = stringValue;
    this.binaryValue = binaryValue;
  }

  public static MessageAttribute ofString(String dataType, String value) {
    return new MessageAttribute(dataType, Objects.requireNonNull(value, "value"), null);
  }

  public static MessageAttribute ofBinary(String dataType, byte[] value) {
    return new MessageAttribute(dataType, null, Objects.requireNonNull(value, "value").clone());
  }

  public String dataType() {
    return dataType;
  }

  /** The value of a String or Number attribute; empty for a Binary one. */
  public Optional<String> stringValue() {
    return Optional.ofNullable(stringValue);
  }

  /** The value of a Binary attribute (a copy); empty for a String or Number one. */
  public Optional<byte[]> binaryValue() {
    return Optional.ofNullable(binaryValue).map(byte[]::clone);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MessageAttribute a && dataType.equals(a.dataType) && Objects.equals(stringValue, a.stringValue)
        && Arrays.equals(binaryValue, a.binaryValue);
  }

  @Override
  public int hashCode() {
    return Objects.hash(dataType, stringValue) * 31 + Arrays.hashCode(binaryValue);
  }

  @Override
  public String toString() {
    return dataType + ":" + (stringValue != null ? stringValue : binaryValue.length + " bytes");
  }
}
