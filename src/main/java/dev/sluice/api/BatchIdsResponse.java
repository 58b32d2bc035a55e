package dev.sluice.api;

import java.util.List;

/** The response shape shared by DeleteMessageBatch and ChangeMessageVisibilityBatch. */
public record BatchIdsResponse(List<String> successfulIds, List<BatchResultErrorEntry> failed) {}
