package dev.sluice.access;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WildcardTest {
  @ParameterizedTest(name = "{0} ~ {1} = {2}")
  @CsvSource(delimiter = '|', value = {
      "*|''|true",
      "*|anything|true",
      "''|''|true",
      "''|a|false",
      "a|a|true",
      "a|A|false",
      "?|a|true",
      "?|''|false",
      "?|ab|false",
      "a*c|abc|true",
      "a*c|ac|true",
      "a*c|abcd|false",
      "*c|abcbc|true",
      "a*b*c|aXbYbZc|true",
      "a*b*c|aXcYb|false",
      "**|x|true",
      "a?c*|abcdef|true",
      "queue-*|queue-|true",
      "queue-*|queue|false"})
  void matchesLikeIam(String pattern, String text, boolean expected) {
    assertEquals(expected, Wildcard.matches(pattern, text));
  }
}
