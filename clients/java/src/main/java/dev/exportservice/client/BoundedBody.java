package dev.exportservice.client;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.net.http.HttpResponse.BodyHandler;
import java.net.http.HttpResponse.BodySubscriber;
import java.net.http.HttpResponse.ResponseInfo;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.zip.GZIPInputStream;

/**
 * A response body read whole into bytes, decoded when it came gzip-compressed, and never
 * allowed to grow past a bound: neither the bytes on the wire nor the decoded bytes (a gzip
 * bomb of 1 GB of zeros is 1 MB on the wire). The JDK's {@code HttpClient} neither asks for
 * gzip nor decodes it, and its byte-array handler holds whatever the server sends.
 *
 * <p>Past the bound the read stops, the connection is given up and the exchange fails with
 * {@link TooLarge}. An {@code Error} while reading (an {@code OutOfMemoryError} under a bound
 * larger than the heap) fails the exchange too instead of leaving it pending.
 */
final class BoundedBody implements BodyHandler<byte[]> {
  /** Read size while decoding. */
  private static final int CHUNK_BYTES = 64 * 1024;

  private final int maxBytes;

  BoundedBody(int maxBytes) {
    this.maxBytes = maxBytes;
  }

  /** The body was larger than the bound (on the wire, or once decoded). */
  static final class TooLarge extends IOException {
    private static final long serialVersionUID = 1L;
    final int status;
    final int maxBytes;
    final boolean decoded;

    TooLarge(int status, int maxBytes, boolean decoded) {
      super("The body is larger than " + maxBytes + " bytes" + (decoded ? " once decoded" : ""));
      this.status = status;
      this.maxBytes = maxBytes;
      this.decoded = decoded;
    }
  }

  /** The body came in a {@code Content-Encoding} the client did not ask for. */
  static final class UnknownEncoding extends IOException {
    private static final long serialVersionUID = 1L;
    final int status;

    UnknownEncoding(int status, String encoding) {
      super("The body came in the encoding \"" + encoding + "\", which the client did not ask for");
      this.status = status;
    }
  }

  @Override
  public BodySubscriber<byte[]> apply(ResponseInfo response) {
    String encoding =
        response.headers().firstValue("Content-Encoding").orElse("identity").strip().toLowerCase(Locale.ROOT);
    long declared = response.headers().firstValueAsLong("Content-Length").orElse(-1);
    return new Reader(response.statusCode(), encoding, declared);
  }

  private final class Reader implements BodySubscriber<byte[]> {
    private final CompletableFuture<byte[]> body = new CompletableFuture<>();
    private final List<ByteBuffer> received = new ArrayList<>();
    private final int status;
    private final String encoding;
    private final long declared;
    private Flow.Subscription subscription;
    private long receivedBytes;

    Reader(int status, String encoding, long declared) {
      this.status = status;
      this.encoding = encoding;
      this.declared = declared;
    }

    @Override
    public CompletionStage<byte[]> getBody() {
      return body;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      this.subscription = subscription;
      if (!encoding.equals("identity") && !encoding.equals("gzip") && !encoding.equals("x-gzip")) {
        fail(new UnknownEncoding(status, encoding));
      } else if (declared > maxBytes) {
        fail(new TooLarge(status, maxBytes, false));
      } else {
        subscription.request(Long.MAX_VALUE);
      }
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
      if (body.isDone()) return;
      try {
        for (ByteBuffer buffer : buffers) {
          receivedBytes += buffer.remaining();
          if (receivedBytes > maxBytes) {
            fail(new TooLarge(status, maxBytes, false));
            return;
          }
          // The JDK may reuse its buffers once onNext returns: keep a copy.
          ByteBuffer copy = ByteBuffer.allocate(buffer.remaining());
          copy.put(buffer).flip();
          received.add(copy);
        }
      } catch (Throwable error) { // an OutOfMemoryError too: the call must still complete
        fail(error);
      }
    }

    @Override
    public void onError(Throwable error) {
      received.clear();
      body.completeExceptionally(error);
    }

    @Override
    public void onComplete() {
      if (body.isDone()) return;
      try {
        byte[] bytes = encoding.equals("identity") || receivedBytes == 0 ? joined() : gunzip();
        received.clear();
        body.complete(bytes);
      } catch (Throwable error) {
        received.clear();
        body.completeExceptionally(error);
      }
    }

    private void fail(Throwable error) {
      received.clear();
      body.completeExceptionally(error);
      subscription.cancel();
    }

    private byte[] joined() {
      byte[] bytes = new byte[(int) receivedBytes];
      int at = 0;
      for (ByteBuffer buffer : received) {
        int length = buffer.remaining();
        buffer.get(bytes, at, length);
        at += length;
      }
      return bytes;
    }

    private byte[] gunzip() throws IOException {
      List<InputStream> parts = new ArrayList<>(received.size());
      for (ByteBuffer buffer : received) {
        parts.add(new ByteArrayInputStream(buffer.array(), buffer.position(), buffer.remaining()));
      }
      byte[] out = new byte[(int) Math.min(maxBytes, Math.max(CHUNK_BYTES, receivedBytes * 8))];
      int length = 0;
      try (InputStream in = new GZIPInputStream(new SequenceInputStream(Collections.enumeration(parts)), CHUNK_BYTES)) {
        for (; ; ) {
          if (length == out.length) {
            if (length == maxBytes) {
              if (in.read() < 0) break; // exactly the bound
              throw new TooLarge(status, maxBytes, true);
            }
            out = Arrays.copyOf(out, (int) Math.min(maxBytes, (long) length * 2));
          }
          int read = in.read(out, length, out.length - length);
          if (read < 0) break;
          length += read;
        }
      }
      return length == out.length ? out : Arrays.copyOf(out, length);
    }
  }
}
