package dev.sluice.api;

/**
 * A user or system message attribute as SQS carries it: a DataType ({@code String}, {@code Number},
 * {@code Binary}, optionally with a {@code .customLabel}) and either a string or a binary value.
 */
public record MessageAttributeValue(String dataType, String stringValue, byte[] binaryValue) {

  public static MessageAttributeValue ofString(String value) {
    return new MessageAttributeValue("String", value, null);
  }

  /** True when the DataType's base type is Binary (its value travels as bytes, transport byte 2). */
  public boolean isBinaryType() {
    return dataType != null && (dataType.equals("Binary") || dataType.startsWith("Binary."));
  }
}
