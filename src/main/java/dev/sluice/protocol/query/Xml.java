package dev.sluice.protocol.query;

/** XML text escaping as SQS does it: also {@code "} and carriage return (the SQS Query API guide). */
public final class Xml {
  private Xml() {}

  public static String escape(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder b = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> b.append("&amp;");
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '"' -> b.append("&quot;");
        case '\r' -> b.append("&#xD;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }
}
