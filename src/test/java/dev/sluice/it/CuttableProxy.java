package dev.sluice.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP forwarder on 127.0.0.1 in front of a server, whose connections a test can cut at once, as a
 * network that drops them would: the client sees its connection end while the server stays up, and
 * a new connection through the proxy works again. One thread per direction of each connection.
 */
final class CuttableProxy implements AutoCloseable {
  private final ServerSocket listener;
  private final int targetPort;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();

  CuttableProxy(int targetPort) throws IOException {
    this.targetPort = targetPort;
    this.listener = new ServerSocket();
    listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    Thread acceptor = new Thread(this::accept, "proxy-accept-" + port());
    acceptor.setDaemon(true);
    acceptor.start();
  }

  int port() {
    return listener.getLocalPort();
  }

  /** Ends every connection made so far, both sides; new ones are accepted as before. */
  void cut() {
    for (Socket s : open) {
      closeQuietly(s);
      open.remove(s);
    }
  }

  private void accept() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
        client.setTcpNoDelay(true);
        server.setTcpNoDelay(true);
        open.add(client);
        open.add(server);
        pump(client, server);
        pump(server, client);
      } catch (IOException e) {
        // the listener closed, or the target refused one connection: the client sees it end
      }
    }
  }

  private void pump(Socket from, Socket to) {
    Thread t = new Thread(() -> {
      byte[] buffer = new byte[16 * 1024];
      try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
        int n;
        while ((n = in.read(buffer)) >= 0) {
          out.write(buffer, 0, n);
          out.flush();
        }
      } catch (IOException e) {
        // cut, or the other side closed: end both
      } finally {
        closeQuietly(from);
        closeQuietly(to);
        open.remove(from);
        open.remove(to);
      }
    }, "proxy-pump");
    t.setDaemon(true);
    t.start();
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // already closed
    }
  }

  @Override
  public void close() throws IOException {
    listener.close();
    cut();
  }
}
