package dev.sluice.access;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.model.JsonText;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What one statement covers: Action, Resource, their Not forms, and its conditions all at once. */
class PolicyStatementTest {
  static final String ORDERS = "arn:aws:sqs:us-east-1:111122223333:orders";
  static final String TOPIC = "arn:aws:sns:us-east-1:111122223333:t";

  @ParameterizedTest(name = "{0} covers {1} on {2}: {3}")
  @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
      "'Action':'sqs:SendMessage','Resource':'*'|SendMessage|" + ORDERS + "|true",
      "'Action':'sqs:SendMessage','Resource':'*'|ReceiveMessage|" + ORDERS + "|false",
      "'NotAction':'sqs:SendMessage','Resource':'*'|ReceiveMessage|" + ORDERS + "|true",
      "'NotAction':'sqs:SendMessage','Resource':'*'|SendMessage|" + ORDERS + "|false",
      "'NotAction':['sqs:Send*','sqs:Delete*'],'Resource':'*'|DeleteQueue|" + ORDERS + "|false",
      "'Action':'sqs:*','Resource':'arn:aws:sqs:*:*:pay*'|SendMessage|" + ORDERS + "|false",
      "'Action':'sqs:*','NotResource':'arn:aws:sqs:*:*:pay*'|SendMessage|" + ORDERS + "|true",
      "'Action':'sqs:*','NotResource':['arn:aws:sqs:*:*:pay*','" + ORDERS + "']|SendMessage|" + ORDERS + "|false",
      "'Action':'*','Resource':'*','Condition':{'ArnEquals':{'aws:SourceArn':'" + TOPIC + "'}}|SendMessage|"
          + ORDERS + "|true",
      "'Action':'*','Resource':'*','Condition':{'ArnEquals':{'aws:SourceArn':'" + TOPIC + "x'}}|SendMessage|"
          + ORDERS + "|false"})
  void coversWhatItsElementsSay(String members, String action, String arn, boolean expected) {
    String json = ("{'Effect':'Allow'," + members + "}").replace('\'', '"');
    PolicyStatement s = StatementParser.parse(JsonText.parse(json), "Statement 1", false);
    assertEquals(expected, s.covers(action, arn, new RequestContext(TOPIC, "111122223333")));
  }
}
