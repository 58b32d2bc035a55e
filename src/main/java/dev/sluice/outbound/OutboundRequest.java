package dev.sluice.outbound;

import java.util.Map;

/** One POST to make: the URL (user info in it becomes basic authentication), headers and body. */
public record OutboundRequest(String url, Map<String, String> headers, String body) {}
