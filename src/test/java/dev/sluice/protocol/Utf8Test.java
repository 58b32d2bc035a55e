package dev.sluice.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.ErrorCode;
import dev.sluice.api.SqsException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class Utf8Test {
  static byte[] b(int... bytes) {
    byte[] out = new byte[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      out[i] = (byte) bytes[i];
    }
    return out;
  }

  @Test
  void wellFormedInputDecodesAsTheJdkDoes() {
    for (String s : List.of("", "ascii", "é €", "\uD83D\uDE00 emoji", "\uFFFD the replacement character itself")) {
      assertEquals(s, Utf8.decode(s.getBytes(StandardCharsets.UTF_8)));
    }
  }

  @Test
  void malformedBytesBecomeUnpairedSurrogatesNotReplacementCharacters() {
    assertEquals("a\uDCFFb", Utf8.decode(b('a', 0xFF, 'b')));
    assertEquals("\uDCC3", Utf8.decode(b(0xC3)), "a sequence cut short at the end");
    assertEquals("\uDCC3(", Utf8.decode(b(0xC3, '(')), "a lead byte without its continuation");
    assertEquals("\uDCC0\uDC80", Utf8.decode(b(0xC0, 0x80)), "an overlong encoding");
    assertEquals("\uDCED\uDCA0\uDC80", Utf8.decode(b(0xED, 0xA0, 0x80)), "an encoded surrogate");
    assertEquals("x\uDC80y\u00e9", Utf8.decode(b('-', 'x', 0x80, 'y', 0xC3, 0xA9, '-'), 1, 5), "offset and length");
  }

  @Test
  void wellFormedMeansEverySurrogateIsPaired() {
    assertTrue(Utf8.isWellFormed("a\uD83D\uDE00b"));
    for (String bad : List.of("\uD800", "a\uD800b", "\uDC00", "\uDE00\uD83D", "x\uD83D")) {
      assertFalse(Utf8.isWellFormed(bad), bad);
    }
  }

  @Test
  void checkedRefusesTextThatIsNotWellFormedWithoutEchoingIt() {
    assertEquals("ok", Utf8.checked("ok", "P"));
    assertNull(Utf8.checked(null, "P"));
    SqsException e = assertThrows(SqsException.class, () -> Utf8.checked("x\uDCFF", "QueueUrl"));
    assertEquals(ErrorCode.INVALID_PARAMETER_VALUE, e.code());
    assertEquals("The value of parameter QueueUrl is not valid UTF-8: it holds a malformed byte sequence or an"
        + " unpaired surrogate.", e.getMessage());
  }
}
