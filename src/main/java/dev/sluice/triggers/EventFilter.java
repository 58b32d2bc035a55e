package dev.sluice.triggers;

import dev.sluice.model.JsonText;
import dev.sluice.topics.filter.EventPattern;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A trigger's FilterCriteria, compiled (design/triggers.md §2.8): a record passes when any pattern
 * matches it, read as its event gives it, its body parsed when it is JSON; with no patterns every
 * record passes. Lambda deletes the messages that pass none, without invoking for them. Immutable.
 */
public final class EventFilter {
  private final List<EventPattern> patterns;

  /** {@code patterns}: checked already (the trigger's definition holds only valid ones). */
  public EventFilter(List<String> patterns) {
    this.patterns = EventPattern.parseAll(patterns);
  }

  public boolean filters() {
    return !patterns.isEmpty();
  }

  /** Whether the record {@code recordJson} ({@link SqsEvent#record}) passes. */
  public boolean passes(String recordJson) {
    if (patterns.isEmpty()) {
      return true;
    }
    Map<String, Object> record = new LinkedHashMap<>(JsonText.parseObject(recordJson));
    record.put("body", EventPattern.bodyValue((String) record.get("body")));
    return EventPattern.anyMatches(patterns, record);
  }
}
