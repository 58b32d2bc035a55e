package dev.sluice.topics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.Signature;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.Date;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The generated key's certificate, read back by the JDK's own X.509 parser, and its signatures. */
class SigningCertificateTest {
  static final long NOW = 1_764_000_000_000L;
  static SigningCertificate cert;
  static X509Certificate parsed;

  @BeforeAll
  static void make() throws Exception {
    cert = SigningCertificate.generate(2048, NOW);
    parsed = (X509Certificate) CertificateFactory.getInstance("X.509")
        .generateCertificate(new ByteArrayInputStream(cert.pem().getBytes(StandardCharsets.US_ASCII)));
  }

  @Test
  void theCertificateIsAWellFormedSelfSignedX509v3() throws Exception {
    assertEquals(3, parsed.getVersion());
    assertEquals("CN=sns.amazonaws.com", parsed.getSubjectX500Principal().getName());
    assertEquals(parsed.getSubjectX500Principal(), parsed.getIssuerX500Principal());
    assertEquals("SHA256withRSA", parsed.getSigAlgName());
    parsed.verify(parsed.getPublicKey()); // its own signature holds
    parsed.checkValidity(new Date(NOW));
    parsed.checkValidity(new Date(NOW + SigningCertificate.VALIDITY_MILLIS - 1));
    assertThrows(CertificateExpiredException.class,
        () -> parsed.checkValidity(new Date(NOW + SigningCertificate.VALIDITY_MILLIS + 1)));
    assertTrue(java.util.Arrays.equals(cert.der(), parsed.getEncoded()));
  }

  @Test
  void signaturesOfBothVersionsVerifyWithTheCertificatesKey() throws Exception {
    String text = "Message\nhello\nMessageId\nid\nTimestamp\n2026-11-27T00:00:00.000Z\nTopicArn\narn\nType\n"
        + "Notification\n";
    for (String[] v : new String[][] {{"1", "SHA1withRSA"}, {"2", "SHA256withRSA"}}) {
      Signature s = Signature.getInstance(v[1]);
      s.initVerify(parsed.getPublicKey());
      s.update(text.getBytes(StandardCharsets.UTF_8));
      assertTrue(s.verify(Base64.getDecoder().decode(cert.sign(text, v[0]))), "version " + v[0]);
    }
  }

  @Test
  void theFileNameIsTheContentsHash() {
    assertTrue(cert.fileName().matches("SimpleNotificationService-[0-9a-f]{32}\\.pem"), cert.fileName());
    assertTrue(!cert.fileName().equals(SigningCertificate.generate(2048, NOW).fileName()));
  }
}
