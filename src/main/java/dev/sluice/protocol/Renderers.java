package dev.sluice.protocol;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * One wire protocol's renderers of response records, one per action with output, each typed by
 * its action's response. Built once at class initialisation and read-only afterwards.
 */
public final class Renderers<T> {
  private final Map<SqsAction<?, ?>, Function<?, T>> byAction = new HashMap<>();

  public <R> Renderers<T> put(SqsAction<?, R> action, Function<? super R, T> render) {
    if (!action.hasOutput()) {
      throw new IllegalArgumentException(action + " has no output to render");
    }
    byAction.put(action, render);
    return this;
  }

  /**
   * Refuses a table that misses an action with output: the gap then fails the protocol's first
   * response (and every test that renders one), not only the requests of that one action.
   */
  public Renderers<T> complete() {
    for (SqsAction<?, ?> a : SqsActions.all()) {
      if (a.hasOutput() && !byAction.containsKey(a)) {
        throw new IllegalStateException("No renderer for " + a);
      }
    }
    return this;
  }

  @SuppressWarnings("unchecked") // put() only stores a renderer under an action of the same response type
  public <R> T render(SqsAction<?, R> action, R response) {
    return ((Function<? super R, T>) byAction.get(action)).apply(response);
  }
}
