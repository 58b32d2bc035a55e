package dev.sluice.engine;

import dev.sluice.api.Caller;
import dev.sluice.triggers.Trigger;

/**
 * Who may manage a trigger, decided here and nowhere else (design/triggers.md §2.11): the operator
 * (the management token) every trigger; any other caller the triggers its own account owns. Whose
 * messages a trigger may read is not decided here but by the queue's owner check, {@link Permit},
 * asked as the trigger's owner. Stateless.
 */
final class TriggerAccess {
  private TriggerAccess() {}

  /** Whether {@code c} may see and change {@code t}. */
  static boolean manages(Caller c, Trigger t) {
    return c.operator() || c.accountId().equals(t.owner());
  }
}
