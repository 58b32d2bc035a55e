package dev.sluice.engine;

import dev.sluice.persistence.DurableStore;
import dev.sluice.topics.SigningCertificate;
import dev.sluice.runtime.EventLoops;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Signs envelopes off the event loops: an RSA signature is a fraction of a millisecond to a
 * millisecond of CPU, too much for a shard's loop at thousands of publishes a second, so it runs on
 * Vert.x's worker pool (unordered: signatures of one publish and of many run side by side) and its
 * result comes back to the shard that asked. Holds the server's signing certificate, made (or read
 * back from PostgreSQL) on first use: an RSA key takes a noticeable while to make, which a server
 * that never signs an envelope should not pay at each start.
 */
public final class TopicSigner {
  /** RSA key size of the generated key: as AWS's SNS certificates. */
  static final int KEY_BITS = 2048;
  /** The settings (sluice_settings) a single-node server keeps its key and certificate under. */
  static final String KEY_SETTING = "sns-signing-key";
  static final String CERTIFICATE_SETTING = "sns-signing-certificate";
  /** Where certificates are served, under the server's base URL. */
  public static final String PATH = "/sns/";

  /** Signatures by the key they were asked under, and where the certificate that checks them is. */
  record Signed(Map<String, String> signatures, String certificatePath) {}

  private final Vertx vertx;
  private final Supplier<Future<SigningCertificate>> source;
  private Future<SigningCertificate> certificate;

  TopicSigner(Vertx vertx, Supplier<Future<SigningCertificate>> source) {
    this.vertx = vertx;
    this.source = source;
  }

  /**
   * The signer of a server: its key made at first use (an RSA key takes a noticeable while to make,
   * so not on an event loop) and, with {@code durable} (a single-node server with PostgreSQL; null
   * otherwise), kept there with its certificate beside the receipt-handle key, so that a restart
   * signs with the same key and SigningCertURLs in messages already delivered stay valid. The
   * setting is claimed once: a key made by a later start is dropped for the kept one.
   */
  static TopicSigner of(Vertx vertx, DurableStore durable) {
    return new TopicSigner(vertx, () -> {
      Future<SigningCertificate> made = vertx.executeBlocking(
          () -> SigningCertificate.generate(KEY_BITS, System.currentTimeMillis()));
      return durable == null ? made : made.compose(cert -> durable.setting(KEY_SETTING, cert.keyBytes())
          .compose(key -> durable.setting(CERTIFICATE_SETTING, cert.der())
              .map(der -> SigningCertificate.of(key, der))));
    });
  }

  /** The certificate, made or read back at the first call; from any thread. */
  public synchronized Future<SigningCertificate> certificate() {
    if (certificate == null || certificate.failed()) {
      certificate = source.get();
    }
    return certificate;
  }

  /**
   * Each of {@code texts} (by key) signed for SignatureVersion {@code version}, by the same keys;
   * answered on the caller's context. (The certificate's future belongs to the context that first
   * asked for it, and would run what follows there: on another shard's loop, touching this shard's
   * topics.)
   */
  Future<Signed> sign(Map<String, String> texts, String version) {
    Promise<Signed> answer = EventLoops.promiseOnCaller();
    certificate().compose(cert -> {
      List<String> keys = new ArrayList<>(texts.keySet());
      List<Future<String>> signed = new ArrayList<>(keys.size());
      for (String k : keys) {
        String text = texts.get(k);
        signed.add(vertx.executeBlocking(() -> cert.sign(text, version), false));
      }
      return Future.all(signed).map(done -> {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < keys.size(); i++) {
          out.put(keys.get(i), signed.get(i).result());
        }
        return new Signed(out, PATH + cert.fileName());
      });
    }).onComplete(answer);
    return answer.future();
  }
}
