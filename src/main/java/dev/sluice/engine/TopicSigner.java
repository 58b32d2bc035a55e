package dev.sluice.engine;

import dev.sluice.topics.SigningCertificate;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Signs envelopes off the event loops: an RSA signature is a fraction of a millisecond to a
 * millisecond of CPU, too much for a shard's loop at thousands of publishes a second, so it runs on
 * Vert.x's worker pool (unordered: signatures of one publish and of many run side by side) and its
 * result comes back to the shard that asked. Holds the server's signing certificate.
 */
public final class TopicSigner {
  /** RSA key size of the generated key: as AWS's SNS certificates. */
  static final int KEY_BITS = 2048;
  /** The settings (sluice_settings) a single-node server keeps its key and certificate under. */
  static final String KEY_SETTING = "sns-signing-key";
  static final String CERTIFICATE_SETTING = "sns-signing-certificate";

  private final Vertx vertx;
  private final SigningCertificate certificate;

  TopicSigner(Vertx vertx, SigningCertificate certificate) {
    this.vertx = vertx;
    this.certificate = certificate;
  }

  public SigningCertificate certificate() {
    return certificate;
  }

  /** The path the certificate is served at, under the server's base URL. */
  public String certificatePath() {
    return "/sns/" + certificate.fileName();
  }

  /** Each of {@code texts} (by key) signed for SignatureVersion {@code version}, by the same keys. */
  Future<Map<String, String>> sign(Map<String, String> texts, String version) {
    if (texts.isEmpty()) {
      return Future.succeededFuture(Map.of());
    }
    List<String> keys = new ArrayList<>(texts.keySet());
    List<Future<String>> signed = new ArrayList<>(keys.size());
    for (String k : keys) {
      String text = texts.get(k);
      signed.add(vertx.executeBlocking(() -> certificate.sign(text, version), false));
    }
    return Future.all(signed).map(done -> {
      Map<String, String> out = new LinkedHashMap<>();
      for (int i = 0; i < keys.size(); i++) {
        out.put(keys.get(i), signed.get(i).result());
      }
      return out;
    });
  }
}
