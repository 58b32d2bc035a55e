package dev.sluice.api;

import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;

/**
 * A user or system message attribute as SQS carries it: a DataType ({@code String}, {@code Number},
 * {@code Binary}, optionally with a {@code .customLabel}) and either a string or a binary value.
 * A value: equal when the contents are, bytes included (a record compares arrays by reference).
 */
public record MessageAttributeValue(String dataType, String stringValue, byte[] binaryValue) {

  public static MessageAttributeValue ofString(String value) {
    return new MessageAttributeValue("String", value, null);
  }

  /** True when the DataType's base type is Binary (its value travels as bytes, transport byte 2). */
  public boolean isBinaryType() {
    return dataType != null && (dataType.equals("Binary") || dataType.startsWith("Binary."));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MessageAttributeValue v && Objects.equals(dataType, v.dataType)
        && Objects.equals(stringValue, v.stringValue) && Arrays.equals(binaryValue, v.binaryValue);
  }

  @Override
  public int hashCode() {
    return Objects.hash(dataType, stringValue) * 31 + Arrays.hashCode(binaryValue);
  }

  @Override
  public String toString() {
    return "MessageAttributeValue[dataType=" + dataType + ", stringValue=" + stringValue + ", binaryValue="
        + (binaryValue == null ? null : Base64.getEncoder().encodeToString(binaryValue)) + "]";
  }
}
