package dev.sluice.model;

import java.util.List;

/**
 * The answer to a {@link PageRequest}: its rows in delivery order, and whether the read stopped at
 * one of the request's limits (rows or bytes) rather than because no more rows were in range.
 */
public record PageResult(List<RestoredMessage> rows, boolean reachedLimit) {
  public PageResult {
    rows = List.copyOf(rows);
  }
}
