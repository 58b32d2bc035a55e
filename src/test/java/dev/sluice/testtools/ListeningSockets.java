package dev.sluice.testtools;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The TCP sockets this JVM is listening on, with the address each is bound to, read from Linux's
 * /proc: the kernel's table of the network namespace (/proc/net/tcp and tcp6) filtered by the
 * socket inodes among this process's file descriptors. So it sees every listener a library opens,
 * whoever opened it, and none of another process on the machine.
 */
public final class ListeningSockets {
  /** /proc/net/tcp's state of a listening socket. */
  private static final String LISTEN = "0A";

  private ListeningSockets() {}

  /** Each listening socket of this process by its inode. */
  public static Map<Long, InetSocketAddress> ofThisProcess() {
    Set<Long> mine = socketInodes();
    Map<Long, InetSocketAddress> listening = new HashMap<>();
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      List<String> lines;
      try {
        lines = Files.readAllLines(Path.of(table));
      } catch (IOException e) {
        continue; // no IPv6 in this kernel
      }
      for (String line : lines.subList(1, lines.size())) {
        String[] f = line.trim().split("\\s+");
        long inode = Long.parseLong(f[9]);
        if (f[3].equals(LISTEN) && mine.contains(inode)) {
          listening.put(inode, address(f[1]));
        }
      }
    }
    return listening;
  }

  private static Set<Long> socketInodes() {
    Set<Long> inodes = new HashSet<>();
    try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
      for (Path fd : fds) {
        try {
          String target = Files.readSymbolicLink(fd).toString();
          if (target.startsWith("socket:[")) {
            inodes.add(Long.parseLong(target.substring(8, target.length() - 1)));
          }
        } catch (IOException e) {
          // closed between the listing and the read
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return inodes;
  }

  /**
   * "0100007F:1F90" (IPv4) or 32 hex digits and a port (IPv6): the address is written as 32-bit
   * words, each in the machine's byte order (little-endian here), the port in plain hex. An
   * IPv4-mapped IPv6 address comes back as the IPv4 address it maps.
   */
  static InetSocketAddress address(String field) {
    String[] parts = field.split(":");
    String hex = parts[0];
    byte[] bytes = new byte[hex.length() / 2];
    for (int word = 0; word < bytes.length / 4; word++) {
      for (int b = 0; b < 4; b++) {
        int at = word * 8 + (3 - b) * 2;
        bytes[word * 4 + b] = (byte) Integer.parseInt(hex.substring(at, at + 2), 16);
      }
    }
    try {
      return new InetSocketAddress(InetAddress.getByAddress(bytes), Integer.parseInt(parts[1], 16));
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException(field, e);
    }
  }
}
