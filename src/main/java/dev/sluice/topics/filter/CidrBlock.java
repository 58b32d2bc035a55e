package dev.sluice.topics.filter;

import java.util.Arrays;

/**
 * An IPv4 or IPv6 address block of a {@code cidr} match. Addresses are parsed here, by their
 * literal form only, because {@code InetAddress.getByName} would resolve anything else through DNS.
 */
record CidrBlock(byte[] network, int maskBits) {

  static CidrBlock parse(Object operand) {
    if (!(operand instanceof String text)) {
      // AWS names the wrong operator here; the text is what its service sends.
      throw FilterPolicyException.policy("prefix match pattern must be a string");
    }
    // Java's split, as AWS's parser uses: a trailing "/" leaves one part, so it is a missing '/'.
    String[] parts = text.split("/");
    if (parts.length != 2) {
      throw FilterPolicyException.policy("Malformed CIDR, one '/' required");
    }
    int bits;
    try {
      bits = Integer.parseInt(parts[1]);
    } catch (NumberFormatException e) {
      throw FilterPolicyException.policy("Malformed CIDR, mask bits must be an integer");
    }
    if (bits < 0) {
      throw FilterPolicyException.policy("Malformed CIDR, mask bits must not be negative");
    }
    byte[] address = parseAddress(parts[0]);
    if (address == null) {
      throw FilterPolicyException.policy("Nonstandard IP address: " + parts[0]);
    }
    if (address.length == 4 && bits > 31) {
      throw FilterPolicyException.policy("IPv4 mask bits must be < 32");
    }
    if (address.length == 16 && bits > 127) {
      throw FilterPolicyException.policy("IPv6 mask bits must be < 128");
    }
    return new CidrBlock(masked(address, bits), bits);
  }

  boolean contains(String value) {
    byte[] address = parseAddress(value);
    return address != null && address.length == network.length
        && Arrays.equals(masked(address, maskBits), network);
  }

  private static byte[] masked(byte[] address, int bits) {
    byte[] out = address.clone();
    for (int i = 0; i < out.length; i++) {
      int keep = Math.max(0, Math.min(8, bits - 8 * i));
      out[i] = (byte) (out[i] & (0xFF << (8 - keep)));
    }
    return out;
  }

  /** The 4 or 16 bytes of a literal IPv4 or IPv6 address, or null when the text is neither. */
  static byte[] parseAddress(String text) {
    return text.contains(":") ? parseIpv6(text) : parseIpv4(text);
  }

  private static byte[] parseIpv4(String text) {
    String[] parts = text.split("\\.", -1);
    if (parts.length != 4) {
      return null;
    }
    byte[] out = new byte[4];
    for (int i = 0; i < 4; i++) {
      if (!parts[i].matches("[0-9]{1,3}")) {
        return null;
      }
      int v = Integer.parseInt(parts[i]);
      if (v > 255) {
        return null;
      }
      out[i] = (byte) v;
    }
    return out;
  }

  private static byte[] parseIpv6(String text) {
    int gap = text.indexOf("::");
    if (gap >= 0 && text.indexOf("::", gap + 1) >= 0) {
      return null;
    }
    String head = gap >= 0 ? text.substring(0, gap) : text;
    String tail = gap >= 0 ? text.substring(gap + 2) : "";
    int[] headGroups = groups(head, gap < 0);
    int[] tailGroups = groups(tail, true);
    if (headGroups == null || tailGroups == null) {
      return null;
    }
    int total = headGroups.length + tailGroups.length;
    if (gap < 0 ? total != 8 : total > 7) {
      return null;
    }
    int[] all = new int[8];
    System.arraycopy(headGroups, 0, all, 0, headGroups.length);
    System.arraycopy(tailGroups, 0, all, 8 - tailGroups.length, tailGroups.length);
    byte[] out = new byte[16];
    for (int i = 0; i < 8; i++) {
      out[2 * i] = (byte) (all[i] >> 8);
      out[2 * i + 1] = (byte) all[i];
    }
    return out;
  }

  /** 16-bit groups of one side of "::"; the last side may end in a dotted IPv4 (two groups). */
  private static int[] groups(String side, boolean mayEndInIpv4) {
    if (side.isEmpty()) {
      return new int[0];
    }
    String[] parts = side.split(":", -1);
    int[] out = new int[parts.length + 1];
    int n = 0;
    for (int i = 0; i < parts.length; i++) {
      String p = parts[i];
      if (i == parts.length - 1 && mayEndInIpv4 && p.contains(".")) {
        byte[] v4 = parseIpv4(p);
        if (v4 == null) {
          return null;
        }
        out[n++] = ((v4[0] & 0xFF) << 8) | (v4[1] & 0xFF);
        out[n++] = ((v4[2] & 0xFF) << 8) | (v4[3] & 0xFF);
      } else if (p.matches("[0-9a-fA-F]{1,4}")) {
        out[n++] = Integer.parseInt(p, 16);
      } else {
        return null;
      }
    }
    return Arrays.copyOf(out, n);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CidrBlock c && c.maskBits == maskBits && Arrays.equals(c.network, network);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(network) + maskBits;
  }

  @Override
  public String toString() {
    return "CidrBlock[" + Arrays.toString(network) + "/" + maskBits + "]";
  }
}
