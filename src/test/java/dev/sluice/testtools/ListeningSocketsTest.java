package dev.sluice.testtools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

class ListeningSocketsTest {
  @Test
  void theKernelsHexAddressesAreDecoded() throws Exception {
    assertEquals(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 8080),
        ListeningSockets.address("0100007F:1F90"));
    assertEquals(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 5701),
        ListeningSockets.address("0000000000000000FFFF00000100007F:1645"), "IPv4-mapped, from tcp6");
    assertEquals(new InetSocketAddress(InetAddress.getByName("::1"), 5701),
        ListeningSockets.address("00000000000000000000000001000000:1645"));
    assertTrue(ListeningSockets.address("00000000000000000000000000000000:1645").getAddress().isAnyLocalAddress());
  }

  @Test
  void aSocketThisProcessListensOnIsFoundWithItsAddress() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      assertTrue(ListeningSockets.ofThisProcess().containsValue(
          new InetSocketAddress(InetAddress.getByName("127.0.0.1"), s.getLocalPort())));
    }
  }
}
