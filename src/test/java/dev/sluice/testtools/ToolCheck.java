package dev.sluice.testtools;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.engine.discovery.ClassSelector;
import org.junit.platform.engine.discovery.MethodSelector;
import org.junit.platform.launcher.LauncherDiscoveryListener;
import org.junit.platform.launcher.LauncherDiscoveryRequest;

/**
 * Checks the tools that test classes declare ({@link NeedsTools}) before their tests start, and
 * fails with one message naming every missing tool and how to install it:
 * <ul>
 *   <li>for a whole run: when a run selects several classes (Maven's test plugins select every
 *       class they will run in one request, after asking about each class alone), the tools of
 *       all of them are checked before the first test starts, and a missing one stops the run, so
 *       that a laptop without Chromium learns it at once rather than from a failure deep into the
 *       suite (registered as a launcher listener through META-INF/services);
 *   <li>for one class: before its first test (a Jupiter extension that {@link NeedsTools} brings),
 *       for runs of a single class and for runs that select packages, as an IDE may.
 * </ul>
 */
public final class ToolCheck implements LauncherDiscoveryListener, BeforeAllCallback {
  @Override
  public void launcherDiscoveryStarted(LauncherDiscoveryRequest request) {
    List<Class<?>> classes = Stream.concat(
            request.getSelectorsByType(ClassSelector.class).stream().map(ClassSelector::getJavaClass),
            request.getSelectorsByType(MethodSelector.class).stream().map(MethodSelector::getJavaClass))
        .distinct()
        .toList();
    // Maven's plugins first discover each class alone, to see whether it holds tests: failing
    // there would stop that scan, so a single class is left to its own check below.
    if (classes.size() > 1) {
      check(classes.stream());
    }
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    check(Stream.of(context.getRequiredTestClass()));
  }

  private static void check(Stream<Class<?>> classes) {
    Set<Tool> needed = EnumSet.noneOf(Tool.class);
    classes.map(c -> c.getAnnotation(NeedsTools.class)).filter(Objects::nonNull)
        .forEach(declared -> needed.addAll(List.of(declared.value())));
    Map<Tool, String> missing = Tools.missing(needed);
    if (!missing.isEmpty()) {
      throw new MissingToolsException(Tools.message(missing));
    }
  }
}
