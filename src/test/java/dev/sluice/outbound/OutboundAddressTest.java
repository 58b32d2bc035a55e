package dev.sluice.outbound;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

class OutboundAddressTest {

  @Test
  void nonPublicAddressesAreRecognised() throws Exception {
    for (String a : new String[] {"127.0.0.1", "127.1.2.3", "0.0.0.0", "10.0.0.1", "172.16.5.4", "192.168.1.1",
        "169.254.169.254", "100.64.0.1", "100.127.255.255", "198.18.0.1", "224.0.0.1", "240.0.0.1", "::1", "::",
        "fe80::1", "fc00::1", "fd12:3456::1", "::ffff:127.0.0.1", "::ffff:10.1.2.3"}) {
      assertFalse(OutboundHttp.isPublic(InetAddress.getByName(a)), a);
    }
  }

  @Test
  void publicAddressesPass() throws Exception {
    for (String a : new String[] {"8.8.8.8", "1.1.1.1", "100.63.255.255", "100.128.0.1", "198.20.0.1",
        "2001:4860:4860::8888"}) {
      assertTrue(OutboundHttp.isPublic(InetAddress.getByName(a)), a);
    }
  }
}
