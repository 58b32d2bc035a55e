package dev.sluice.config;

import java.util.List;

/**
 * Transactional outbox relays (src/site/markdown/outbox.md): whether they run, and the application
 * databases whose outbox tables are relayed to queues.
 */
public record OutboxConfig(boolean enabled, List<OutboxSource> sources) {
  /** The sources to relay now: none when the relays are off. */
  public List<OutboxSource> relayed() {
    return enabled ? sources : List.of();
  }
}
