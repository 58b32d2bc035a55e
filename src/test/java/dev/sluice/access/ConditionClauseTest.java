package dev.sluice.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.model.JsonText;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConditionClauseTest {
  static final String TOPIC = "arn:aws:sns:us-east-1:111122223333:orders";

  static boolean holds(String condition, String sourceArn, String sourceAccount) {
    List<ConditionClause> clauses = ConditionClause.parseAll(JsonText.parse(condition), "Statement 1.Condition");
    RequestContext ctx = new RequestContext(sourceArn, sourceAccount);
    return clauses.stream().allMatch(c -> c.holds(ctx));
  }

  @ParameterizedTest(name = "{0} with SourceArn={1} SourceAccount={2}: {3}")
  @CsvSource(delimiter = '|', quoteCharacter = '"', nullValues = "-", value = {
      "{'ArnEquals':{'aws:SourceArn':'" + TOPIC + "'}}|" + TOPIC + "|-|true",
      "{'ArnEquals':{'aws:SourceArn':'" + TOPIC + "'}}|arn:aws:sns:us-east-1:111122223333:other|-|false",
      "{'ArnEquals':{'aws:SourceArn':'" + TOPIC + "'}}|-|-|false",
      "{'ArnLike':{'aws:SourceArn':'arn:aws:sns:*:111122223333:*'}}|" + TOPIC + "|-|true",
      "{'ArnLike':{'aws:SourceArn':'arn:aws:sns:*:111122223333:*'}}|arn:aws:sns:us-east-1:444455556666:x|-|false",
      "{'ArnLike':{'aws:SourceArn':'arn:aws:sns:*'}}|" + TOPIC + "|-|false",
      "{'ArnLike':{'aws:SourceArn':'arn:aws:sns:*:*:*'}}|not-an-arn|-|false",
      "{'ArnLike':{'aws:SourceArn':['arn:aws:sns:*:*:a','arn:aws:sns:*:*:orders']}}|" + TOPIC + "|-|true",
      "{'StringEquals':{'aws:SourceArn':'" + TOPIC + "'}}|" + TOPIC + "|-|true",
      "{'StringLike':{'aws:SourceArn':'arn:aws:sns:*'}}|" + TOPIC + "|-|true",
      "{'StringLike':{'aws:SourceArn':'ARN:aws:sns:*'}}|" + TOPIC + "|-|false",
      "{'StringEquals':{'aws:SourceAccount':'111122223333'}}|-|111122223333|true",
      "{'StringEquals':{'aws:SourceAccount':111122223333}}|-|111122223333|true",
      "{'StringEquals':{'aws:SourceAccount':'111122223333'}}|-|444455556666|false",
      "{'StringLike':{'aws:SourceAccount':'1111*'}}|-|111122223333|true",
      "{'StringEquals':{'AWS:SOURCEACCOUNT':'111122223333'}}|-|111122223333|true",
      // negations hold when the key is absent; IfExists holds when it is absent
      "{'StringNotEquals':{'aws:SourceAccount':'111122223333'}}|-|444455556666|true",
      "{'StringNotEquals':{'aws:SourceAccount':'111122223333'}}|-|111122223333|false",
      "{'StringNotEquals':{'aws:SourceAccount':'111122223333'}}|-|-|true",
      "{'ArnNotLike':{'aws:SourceArn':'arn:aws:sns:*:111122223333:*'}}|" + TOPIC + "|-|false",
      "{'StringEqualsIfExists':{'aws:SourceAccount':'111122223333'}}|-|-|true",
      "{'StringEqualsIfExists':{'aws:SourceAccount':'111122223333'}}|-|444455556666|false",
      "{'ArnLikeIfExists':{'aws:SourceArn':'arn:aws:sns:*:*:orders'}}|" + TOPIC + "|-|true",
      // ForAnyValue over a single-valued key: as the plain operator, but false when the key is absent
      "{'ForAnyValue:StringEquals':{'aws:SourceAccount':['1','111122223333']}}|-|111122223333|true",
      "{'ForAnyValue:StringEquals':{'aws:SourceAccount':'111122223333'}}|-|-|false",
      "{'ForAnyValue:StringNotEquals':{'aws:SourceAccount':'111122223333'}}|-|-|false",
      "{'ForAnyValue:StringEqualsIfExists':{'aws:SourceAccount':'111122223333'}}|-|-|true",
      // every key and every operator must hold
      "{'ArnLike':{'aws:SourceArn':'arn:aws:sns:*:*:*'},'StringEquals':{'aws:SourceAccount':'111122223333'}}"
          + "|" + TOPIC + "|111122223333|true",
      "{'ArnLike':{'aws:SourceArn':'arn:aws:sns:*:*:*'},'StringEquals':{'aws:SourceAccount':'111122223333'}}"
          + "|" + TOPIC + "|-|false",
      "{'StringEquals':{'aws:SourceArn':'" + TOPIC + "','aws:SourceAccount':'111122223333'}}|" + TOPIC + "|-|false"})
  void evaluatesAsIamDoes(String condition, String sourceArn, String sourceAccount, boolean expected) {
    assertEquals(expected, holds(condition.replace('\'', '"'), sourceArn, sourceAccount));
  }

  @ParameterizedTest(name = "{0} is refused: {1}")
  @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
      "{'IpAddress':{'aws:SourceIp':'10.0.0.0/8'}}|Statement 1.Condition.IpAddress: condition operator \"IpAddress\""
          + " is not supported (String[Not]Equals, String[Not]Like, Arn[Not]Equals, Arn[Not]Like, with IfExists or"
          + " ForAnyValue:)",
      "{'ForAllValues:StringEquals':{'aws:SourceAccount':'1'}}|Statement 1.Condition.ForAllValues:StringEquals:"
          + " condition operator \"ForAllValues:StringEquals\" is not supported (String[Not]Equals, String[Not]Like,"
          + " Arn[Not]Equals, Arn[Not]Like, with IfExists or ForAnyValue:)",
      "{'StringEquals':{'aws:PrincipalOrgID':'o-1'}}|Statement 1.Condition.StringEquals: condition key"
          + " \"aws:PrincipalOrgID\" is not supported (aws:SourceArn, aws:SourceAccount)",
      "{'Bool':{'aws:SecureTransport':'false'}}|Statement 1.Condition.Bool: condition operator \"Bool\" is not"
          + " supported (String[Not]Equals, String[Not]Like, Arn[Not]Equals, Arn[Not]Like, with IfExists or"
          + " ForAnyValue:)"})
  void anythingElseIsRefusedNeverIgnored(String condition, String message) {
    PolicyException e = assertThrows(PolicyException.class, () -> holds(condition.replace('\'', '"'), null, null));
    assertEquals(PolicyException.Kind.UNSUPPORTED, e.kind());
    assertEquals(message, e.getMessage());
  }

  @Test
  void malformedConditionsAreInvalid() {
    for (String bad : List.of("[]", "{'StringEquals':'x'}", "{'StringEquals':{}}",
        "{'StringEquals':{'aws:SourceAccount':[]}}", "{'StringEquals':{'aws:SourceAccount':true}}")) {
      PolicyException e = assertThrows(PolicyException.class, () -> holds(bad.replace('\'', '"'), null, null), bad);
      assertEquals(PolicyException.Kind.INVALID, e.kind(), bad);
    }
  }
}
