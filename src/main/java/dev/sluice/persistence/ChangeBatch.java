package dev.sluice.persistence;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The message changes of one write-behind window, coalesced per message (DESIGN.md §3): a message
 * sent and deleted in the same window writes nothing, a send followed by receives is one insert
 * of its latest state, and any number of receives or visibility changes is one update. Pure; owned
 * by the one writer that fills and flushes it.
 */
public final class ChangeBatch {
  private record Ref(long queueId, long messageKey) {}

  private sealed interface Pending permits Insert, Update, Delete {}

  private record Insert(MessageRow row) implements Pending {}

  private record Update(DeliveryState state) implements Pending {}

  private record Delete() implements Pending {}

  private static final Delete DELETE = new Delete();

  private final Map<Ref, Pending> pending = new LinkedHashMap<>();
  private int events;

  public void stored(MessageRow row) {
    events++;
    pending.put(new Ref(row.queueId(), row.messageKey()), new Insert(row));
  }

  public void changed(DeliveryState state) {
    events++;
    Ref ref = new Ref(state.queueId(), state.messageKey());
    Pending before = pending.get(ref);
    if (before instanceof Insert insert) {
      pending.put(ref, new Insert(insert.row().with(state)));
    } else if (!(before instanceof Delete)) {
      pending.put(ref, new Update(state));
    }
  }

  public void deleted(long queueId, long messageKey) {
    events++;
    Ref ref = new Ref(queueId, messageKey);
    if (pending.get(ref) instanceof Insert) {
      pending.remove(ref); // never written, never to be
    } else {
      pending.put(ref, DELETE);
    }
  }

  /** Events taken in, before coalescing. */
  public int events() {
    return events;
  }

  public boolean isEmpty() {
    return pending.isEmpty();
  }

  public List<MessageRow> inserts() {
    List<MessageRow> out = new ArrayList<>();
    pending.values().forEach(p -> {
      if (p instanceof Insert i) {
        out.add(i.row());
      }
    });
    return out;
  }

  public List<DeliveryState> updates() {
    List<DeliveryState> out = new ArrayList<>();
    pending.values().forEach(p -> {
      if (p instanceof Update u) {
        out.add(u.state());
      }
    });
    return out;
  }

  /** (queue id, message key) pairs to delete, as two parallel arrays. */
  public long[][] deletes() {
    List<Ref> refs = new ArrayList<>();
    pending.forEach((ref, p) -> {
      if (p instanceof Delete) {
        refs.add(ref);
      }
    });
    long[][] out = new long[2][refs.size()];
    for (int i = 0; i < refs.size(); i++) {
      out[0][i] = refs.get(i).queueId();
      out[1][i] = refs.get(i).messageKey();
    }
    return out;
  }
}
