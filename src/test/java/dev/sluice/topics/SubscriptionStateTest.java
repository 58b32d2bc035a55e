package dev.sluice.topics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.topics.SubscriptionState.Confirmation;
import org.junit.jupiter.api.Test;

class SubscriptionStateTest {
  static SubscriptionState http(Confirmation c) {
    return new SubscriptionState("id", "arn:aws:sns:us-east-1:111111111111:t", "http", "http://h/", "111111111111",
        "arn:aws:iam::111111111111:root", 0, SubscriptionAttributes.NONE, c);
  }

  @Test
  void theThrottleSpacesDeliveriesByItsRate() {
    SubscriptionState s = http(Confirmation.BY_OWNER);
    assertEquals(1000, s.reserveSend(1000, 0), "no throttle: at once");
    assertEquals(1000, s.reserveSend(1000, 4));
    assertEquals(1250, s.reserveSend(1000, 4), "four a second: a quarter of a second apart");
    assertEquals(1500, s.reserveSend(1100, 4));
    assertEquals(5000, s.reserveSend(5000, 4), "an idle subscription starts again at once");
  }

  @Test
  void aConfirmationIsKeptAndReadBack() {
    for (Confirmation c : new Confirmation[] {Confirmation.BY_OWNER, new Confirmation("ab12", true, false, false),
        new Confirmation("ab12", false, true, true), new Confirmation("ab12", false, true, false),
        new Confirmation("ab12", false, false, false)}) {
      assertEquals(c, Confirmation.of(c.stored()), c.stored());
    }
    assertEquals("", Confirmation.BY_OWNER.stored());
  }

  @Test
  void whoMayEndASubscriptionUnsigned() {
    SubscriptionState pending = http(new Confirmation("ab12", true, false, false));
    assertFalse(pending.unsignedUnsubscribeAllowed());
    pending.confirm(false, true);
    assertTrue(pending.unsignedUnsubscribeAllowed(), "confirmed unsigned: AuthenticateOnUnsubscribe needs a signature");
    SubscriptionState signed = http(new Confirmation("ab12", true, false, false));
    signed.confirm(true, true);
    assertFalse(signed.unsignedUnsubscribeAllowed());
    assertEquals("true", signed.view(DeliveryPolicy.DEFAULT).get("ConfirmationWasAuthenticated"));
    assertFalse(http(Confirmation.BY_OWNER).unsignedUnsubscribeAllowed(), "a queue's needs a signed Unsubscribe");
  }
}
