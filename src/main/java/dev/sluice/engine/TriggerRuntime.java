package dev.sluice.engine;

import dev.sluice.triggers.Trigger;
import dev.sluice.triggers.TriggerStatus;
import java.util.UUID;

/**
 * What runs triggers, as the engine tells it of their definitions (the {@code invoke} package
 * implements it): each change is applied once the shard holding the trigger has made it. Called
 * from any event loop.
 */
public interface TriggerRuntime {
  /** A trigger made or changed: its pollers start, change or stop to match. */
  void apply(Trigger trigger);

  /** A trigger deleted: its pollers stop. */
  void remove(UUID id);

  /** What the trigger's pollers report now. */
  TriggerStatus status(UUID id);

  /** No runtime (before one is connected): definitions are kept, nothing runs. */
  TriggerRuntime NONE = new TriggerRuntime() {
    @Override
    public void apply(Trigger trigger) {}

    @Override
    public void remove(UUID id) {}

    @Override
    public TriggerStatus status(UUID id) {
      return TriggerStatus.NOT_STARTED;
    }
  };
}
