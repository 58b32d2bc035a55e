package dev.sluice.protocol.query;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.core.buffer.Buffer;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QueryParamsTest {
  @Test
  void formEncodingIsDecodedAsUtf8AndTheBodyWins() {
    Map<String, String> p = QueryParams.of("Action=ListQueues&QueueNamePrefix=url&Empty",
        Buffer.buffer("QueueNamePrefix=a+b%2Bc%C3%A9&&MessageBody=%E2%82%AC"));
    assertEquals(Map.of("Action", "ListQueues", "QueueNamePrefix", "a b+cé", "Empty", "", "MessageBody", "€"), p);
  }

  @Test
  void bytesThatAreNotUtf8StayVisibleAsUnpairedSurrogates() {
    assertEquals("a\uDCFFb", QueryParams.of(null, Buffer.buffer("v=a%FFb")).get("v"), "percent-encoded");
    assertEquals("a\uDCFFb", QueryParams.of(null, Buffer.buffer(new byte[] {'v', '=', 'a', (byte) 0xFF, 'b'}))
        .get("v"), "raw in the body");
    assertEquals("\uDCED\uDCA0\uDC80", QueryParams.of("v=%ED%A0%80", null).get("v"), "an encoded surrogate");
    // The request line reaches the server one char per byte.
    assertEquals("\u00e9\uDCFF", QueryParams.of("v=\u00c3\u00a9\u00ff", null).get("v"), "raw in the query string");
  }

  @Test
  void aStrayPercentLeavesTheValueAsSent() {
    assertEquals("100%+sure", QueryParams.of(null, Buffer.buffer("v=100%+sure")).get("v"));
    assertEquals("%4", QueryParams.of(null, Buffer.buffer("v=%4")).get("v"));
    assertEquals("%zz%41", QueryParams.of(null, Buffer.buffer("v=%zz%41")).get("v"));
  }
}
