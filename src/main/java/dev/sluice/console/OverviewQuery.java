package dev.sluice.console;

import dev.sluice.api.SqsException;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * What an overview asks for (design/console.md §2.6, {@code GET queues}): a name filter
 * (substring, case-insensitive), a type, a sort column and order (ties by name), a page, and which
 * accounts. Bad values are refused as InvalidParameterValue.
 */
public record OverviewQuery(String filter, String type, String sort, boolean descending, int offset, int limit,
    boolean allAccounts) {
  public static final List<String> TYPES = List.of("all", "standard", "fifo", "dlq");
  public static final List<String> SORTS =
      List.of("name", "type", "visible", "inflight", "delayed", "oldest", "arrived", "received", "deleted");
  public static final int MAX_LIMIT = 500;
  public static final int DEFAULT_LIMIT = 100;

  /** Every value at its default: all of the default account's queues by name, the first page. */
  public static final OverviewQuery DEFAULT = new OverviewQuery("", "all", "name", false, 0, DEFAULT_LIMIT, false);

  /** Reads the query parameters {@code param} answers (null when absent). */
  public static OverviewQuery parse(Function<String, String> param) {
    String filter = param.apply("filter");
    String type = oneOf(param, "type", TYPES, "all");
    String sort = oneOf(param, "sort", SORTS, "name");
    boolean descending = oneOf(param, "order", List.of("asc", "desc"), "asc").equals("desc");
    int offset = number(param, "offset", 0, Integer.MAX_VALUE, 0);
    int limit = number(param, "limit", 1, MAX_LIMIT, DEFAULT_LIMIT);
    boolean all = oneOf(param, "accounts", List.of("default", "all"), "default").equals("all");
    return new OverviewQuery(filter == null ? "" : filter.toLowerCase(Locale.ROOT), type, sort, descending, offset,
        limit, all);
  }

  private static String oneOf(Function<String, String> param, String name, List<String> allowed, String absent) {
    String given = param.apply(name);
    if (given == null || given.isEmpty()) {
      return absent;
    }
    if (!allowed.contains(given)) {
      throw SqsException.invalidValue(given, name, "must be one of " + String.join(", ", allowed) + ".");
    }
    return given;
  }

  private static int number(Function<String, String> param, String name, int min, int max, int absent) {
    String given = param.apply(name);
    if (given == null || given.isEmpty()) {
      return absent;
    }
    try {
      int n = Integer.parseInt(given);
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException notANumber) {
      // refused below, as a number out of bounds is
    }
    throw SqsException.invalidValue(given, name, "must be a whole number from " + min + " to " + max + ".");
  }
}
