package dev.sluice.client;

import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/** A new client on a fake connection ({@link ClientHarness}) for each test, on one Vert.x per class. */
abstract class HarnessTest {
  static Vertx vertx;
  ClientHarness h;

  @BeforeAll
  static void startVertx() {
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stopVertx() {
    vertx.close().await();
  }

  @BeforeEach
  void newClient() {
    h = new ClientHarness(vertx);
  }

  @AfterEach
  void closeClient() {
    h.close();
  }
}
