package dev.sluice.protocol.query;

/**
 * Builds the XML of a Query result: elements written in order, text escaped as SQS does
 * ({@link Xml#escape}). One instance per response; not thread-safe.
 */
public final class XmlWriter {
  private final StringBuilder out = new StringBuilder(256);

  public XmlWriter open(String name) {
    out.append('<').append(name).append('>');
    return this;
  }

  public XmlWriter close(String name) {
    out.append("</").append(name).append('>');
    return this;
  }

  public XmlWriter element(String name, String text) {
    return open(name).text(text).close(name);
  }

  /** Writes the element only when the value is present. */
  public XmlWriter elementIf(String name, String text) {
    return text == null ? this : element(name, text);
  }

  public XmlWriter element(String name, long value) {
    out.append('<').append(name).append('>').append(value);
    return close(name);
  }

  public XmlWriter element(String name, boolean value) {
    out.append('<').append(name).append('>').append(value);
    return close(name);
  }

  public boolean isEmpty() {
    return out.length() == 0;
  }

  @Override
  public String toString() {
    return out.toString();
  }

  private XmlWriter text(String s) {
    out.append(Xml.escape(s));
    return this;
  }
}
