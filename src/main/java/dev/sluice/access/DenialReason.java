package dev.sluice.access;

/**
 * Why a request was denied, in the words AWS's AccessDenied message ends with (IAM User Guide:
 * Troubleshoot access denied error messages). The implicit forms name the action again.
 */
public enum DenialReason {
  EXPLICIT_DENY_IN_IDENTITY_POLICY("with an explicit deny in an identity-based policy"),
  EXPLICIT_DENY_IN_RESOURCE_POLICY("with an explicit deny in a resource-based policy"),
  NO_IDENTITY_POLICY_ALLOWS("because no identity-based policy allows the %s action"),
  NO_RESOURCE_POLICY_ALLOWS("because no resource-based policy allows the %s action");

  private final String phrase;

  DenialReason(String phrase) {
    this.phrase = phrase;
  }

  String phrase(String action) {
    return String.format(phrase, action);
  }
}
