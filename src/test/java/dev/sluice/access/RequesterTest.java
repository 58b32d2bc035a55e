package dev.sluice.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RequesterTest {
  @Test
  void anAccountWithoutAPrincipalIsItsRoot() {
    Requester r = Requester.of("111122223333", null, IdentityPolicy.FULL_ACCESS);
    assertEquals("arn:aws:iam::111122223333:root", r.principalArn());
    assertTrue(r.isAccountRoot());
    assertFalse(r.isService());
    assertFalse(Requester.of("111122223333", "arn:aws:iam::111122223333:user/a", IdentityPolicy.FULL_ACCESS)
        .isAccountRoot());
  }

  @Test
  void aServiceHasNoAccountAndNoPermissionsOfItsOwn() {
    Requester sns = Requester.service("sns.amazonaws.com");
    assertTrue(sns.isService());
    assertFalse(sns.isAccountRoot());
    assertEquals("sns.amazonaws.com", sns.principalArn());
    assertEquals(0, sns.identity().statements().size());
  }

  @Test
  void aRequesterIsOneOrTheOther() {
    assertThrows(IllegalArgumentException.class,
        () -> new Requester("111122223333", "x", IdentityPolicy.FULL_ACCESS, "sns.amazonaws.com"));
    assertThrows(IllegalArgumentException.class, () -> new Requester(null, "x", IdentityPolicy.FULL_ACCESS, null));
  }
}
