package dev.sluice.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Seeded random runs of a {@link CreditWindow} against a model of the server's demand mode (a grant
 * clamped at prefetch, unacknowledged messages capped at prefetch, pushes only against grant) with
 * frames in transit both ways. Run one seed again with {@code -Dclient.seed=N}.
 */
class CreditWindowPropertyTest {
  private static final int RUNS = 2_000;
  private static final int STEPS = 200;

  @Test
  void theWindowNeverLetsTheServerPushWhatWasNotRequested() {
    Long fixed = Long.getLong("client.seed");
    long master = fixed != null ? fixed : System.nanoTime();
    for (int i = 0; i < (fixed != null ? 1 : RUNS); i++) {
      long seed = master + i;
      try {
        new Run(new Random(seed)).go();
      } catch (AssertionError e) {
        throw new AssertionError("run with -Dclient.seed=" + seed + ": " + e.getMessage(), e);
      }
    }
  }

  /** One subscription's life: the client's window, the server's model and the wire between them. */
  private static final class Run {
    private final Random random;
    private final int prefetch;
    private final CreditWindow window;
    // the server
    private int serverGrant;
    private int inFlight;
    // the wire
    private final ArrayDeque<Integer> creditsToServer = new ArrayDeque<>();
    private int pushesToClient;
    private int settlesToServer;
    // the subscriber
    private long requested;
    private long emitted;
    private int held;

    Run(Random random) {
      this.random = random;
      this.prefetch = 1 + random.nextInt(random.nextBoolean() ? 3 : 20);
      this.window = new CreditWindow(prefetch);
    }

    void go() {
      for (int step = 0; step < STEPS; step++) {
        switch (random.nextInt(10)) {
          case 0 -> request();
          case 1 -> applyCredit();
          case 2, 3 -> push();
          case 4, 5 -> receive();
          case 6 -> settle();
          case 7 -> applySettle();
          case 8 -> {
            if (random.nextInt(8) == 0) {
              reconnect();
            } else {
              expire();
            }
          }
          default -> {
            if (random.nextInt(50) == 0) {
              return; // cancelled: nothing more happens to this window
            }
            request();
          }
        }
        check();
      }
    }

    private void request() {
      long n = switch (random.nextInt(6)) {
        case 0 -> Long.MAX_VALUE;
        case 1 -> prefetch;
        case 2 -> 1 + random.nextInt(100);
        default -> 1 + random.nextInt(3);
      };
      window.request(n);
      requested = requested + n < 0 ? Long.MAX_VALUE : requested + n;
      topUp();
    }

    private void topUp() {
      int n = window.topUp();
      if (n > 0) {
        assertTrue(n <= prefetch, "a credit of " + n + " is over prefetch " + prefetch);
        creditsToServer.add(n);
      }
    }

    private void applyCredit() {
      Integer n = creditsToServer.poll();
      if (n != null) {
        assertTrue(serverGrant + n <= prefetch, "the server's clamp bit: grant " + serverGrant + " + " + n);
        serverGrant = Math.min(prefetch, serverGrant + n);
      }
    }

    /** The server receives a batch: at most its grant, its free slots and 10. */
    private void push() {
      int batch = Math.min(Math.min(serverGrant, prefetch - inFlight), 10);
      if (batch > 0) {
        int n = 1 + random.nextInt(batch);
        serverGrant -= n;
        inFlight += n;
        pushesToClient += n;
      }
    }

    private void receive() {
      if (pushesToClient > 0) {
        pushesToClient--;
        assertTrue(window.onPush(), "a push within the grant was refused");
        emitted++;
        held++;
        topUp();
      }
    }

    /** An ack or a nack: both free the message's slot on the server when they arrive. */
    private void settle() {
      if (held > 0) {
        held--;
        settlesToServer++;
      }
    }

    private void applySettle() {
      if (settlesToServer > 0) {
        settlesToServer--;
        inFlight--;
      }
    }

    /** A held message's visibility ran out: the server frees its slot; the client's ack would fail. */
    private void expire() {
      if (held > 0) {
        held--;
        inFlight--;
      }
    }

    /** The connection is lost: the server gives everything back, a new subscription starts at 0. */
    private void reconnect() {
      creditsToServer.clear();
      pushesToClient = 0;
      settlesToServer = 0;
      held = 0;
      serverGrant = 0;
      inFlight = 0;
      window.reset();
      topUp();
    }

    private void check() {
      long wanted = Math.min(window.demand(), prefetch);
      assertTrue(window.grant() <= wanted, "never granted beyond min(demand, prefetch)");
      assertTrue(window.grant() == wanted || window.grant() > 0 && wanted - window.grant() < window.minTopUp(),
          "the grant covers min(demand, prefetch) but for less than a top-up, and is never 0 while wanted "
              + "(grant " + window.grant() + ", wanted " + wanted + ")");
      int onTheWire = creditsToServer.stream().mapToInt(Integer::intValue).sum();
      assertEquals(window.grant(), serverGrant + onTheWire + pushesToClient,
          "the client's grant is the server's plus what is on the wire");
      assertTrue(inFlight >= 0 && inFlight <= prefetch, "unacknowledged " + inFlight + " within prefetch");
      assertTrue(emitted <= requested, "emitted " + emitted + " of " + requested + " requested");
      assertTrue(requested == Long.MAX_VALUE || window.demand() == requested - emitted, "demand is requested − emitted");
    }
  }
}
