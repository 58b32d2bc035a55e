package dev.sluice.cluster;

import static dev.sluice.cluster.HazelcastSettingsTest.cluster;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The clustered event bus binds cluster.host, advertises what other nodes reach, and with TLS trusts only the CA. */
class EventBusSettingsTest {
  static final String CERT = "src/test/resources/tls/test-cert.pem";
  static final String KEY = "src/test/resources/tls/test-key.pem";

  @Test
  void itBindsTheClusterHostAndAdvertisesTheAdvertisedAddress() {
    EventBusOptions o = EventBusSettings.of(cluster("SLUICE_CLUSTER_HOST", "10.0.0.5",
        "SLUICE_CLUSTER_EVENT_BUS_PORT", "6702", "SLUICE_CLUSTER_ADVERTISED_HOST", "node-5.example.internal",
        "SLUICE_CLUSTER_ADVERTISED_EVENT_BUS_PORT", "30702", "SLUICE_CLUSTER_MEMBERS", "10.0.0.6"));
    assertEquals("10.0.0.5", o.getHost());
    assertEquals(6702, o.getPort());
    assertEquals("node-5.example.internal", o.getClusterPublicHost());
    assertEquals(30702, o.getClusterPublicPort());
    assertFalse(o.isSsl());
  }

  @Test
  void withoutAnAdvertisedAddressItAdvertisesTheBoundHostAndPort() {
    EventBusOptions o = EventBusSettings.of(cluster("SLUICE_CLUSTER_EVENT_BUS_PORT", "0"));
    assertEquals("127.0.0.1", o.getHost());
    assertEquals(0, o.getPort(), "a free port, picked at the bind");
    assertEquals("127.0.0.1", o.getClusterPublicHost());
    assertEquals(-1, o.getClusterPublicPort(), "Vert.x's default: the port actually bound");
  }

  @Test
  void withTlsBothEndsShowTheirCertificateAndOnlyTheCaIsTrusted() {
    EventBusOptions o = EventBusSettings.of(cluster("SLUICE_CLUSTER_TLS_CERT_PATH", CERT,
        "SLUICE_CLUSTER_TLS_KEY_PATH", KEY, "SLUICE_CLUSTER_TLS_CA_PATH", CERT));
    assertTrue(o.isSsl());
    PemKeyCertOptions keyCert = (PemKeyCertOptions) o.getKeyCertOptions();
    assertEquals(List.of(KEY), keyCert.getKeyPaths());
    assertEquals(List.of(CERT), keyCert.getCertPaths());
    assertEquals(List.of(CERT), ((PemTrustOptions) o.getTrustOptions()).getCertPaths());
    assertEquals(ClientAuth.REQUIRED, o.getClientAuth());
    assertFalse(o.isTrustAll(), "the event bus trusts all by default");
  }
}
