package dev.sluice.access;

/** A statement's Effect: exactly {@code Allow} or {@code Deny}, case-sensitive (IAM User Guide: Effect). */
public enum Effect {
  ALLOW("Allow"),
  DENY("Deny");

  private final String text;

  Effect(String text) {
    this.text = text;
  }

  static Effect parse(Object value, String where) {
    for (Effect e : values()) {
      if (e.text.equals(value)) {
        return e;
      }
    }
    throw PolicyException.invalid(where + ": Effect must be \"Allow\" or \"Deny\", not " + PolicyValues.show(value));
  }
}
