package dev.exportservice.client.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP relay in front of the real service that counts the bytes it carries back to the client:
 * what travelled on the wire, headers included, whatever the client then made of them.
 */
final class CountingRelay implements AutoCloseable {
  private final ServerSocket server;
  private final URI target;
  final AtomicLong bytesToClient = new AtomicLong();

  CountingRelay(URI target) throws IOException {
    this.target = target;
    server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(this::acceptForever, "counting-relay");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  URI url() {
    return URI.create("http://127.0.0.1:" + server.getLocalPort());
  }

  private void acceptForever() {
    try {
      while (true) {
        Socket client = server.accept();
        Socket service = new Socket(target.getHost(), target.getPort());
        pump(client.getInputStream(), service.getOutputStream(), null, client, service);
        pump(service.getInputStream(), client.getOutputStream(), bytesToClient, client, service);
      }
    } catch (IOException closed) {
      // The relay is closed.
    }
  }

  private static void pump(InputStream from, OutputStream to, AtomicLong counter, Socket a, Socket b) {
    Thread thread =
        new Thread(
            () -> {
              byte[] buffer = new byte[16 * 1024];
              try {
                for (int read; (read = from.read(buffer)) >= 0; ) {
                  if (counter != null) counter.addAndGet(read);
                  to.write(buffer, 0, read);
                  to.flush();
                }
              } catch (IOException gone) {
                // One side left.
              } finally {
                try {
                  a.close();
                  b.close();
                } catch (IOException ignored) {
                  // Closing anyway.
                }
              }
            });
    thread.setDaemon(true);
    thread.start();
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
