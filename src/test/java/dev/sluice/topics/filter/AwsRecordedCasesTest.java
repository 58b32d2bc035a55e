package dev.sluice.topics.filter;

import static dev.sluice.topics.filter.Messages.attrs;
import static dev.sluice.topics.filter.Messages.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Cases run against AWS and recorded by LocalStack, restated here: the policies, messages and
 * outcomes of tests/aws/services/sns/test_sns_filter_policy.py and the error texts of
 * tests/aws/services/sns/test_sns_filter_policy.snapshot.json (repository localstack/localstack).
 * AWS appends the JSON parser's position to some texts ("\n at [Source: ..."); the snapshot's
 * part before it is what is compared.
 */
class AwsRecordedCasesTest {
  static final FilterPolicyScope ATTRS = FilterPolicyScope.MESSAGE_ATTRIBUTES;
  static final FilterPolicyScope BODY = FilterPolicyScope.MESSAGE_BODY;

  static Stream<Arguments> refusedPolicies() {
    return Stream.of(
        // test_validate_policy (Subscribe, default scope)
        Arguments.of("{'key':[['value']]}", ATTRS, "FilterPolicy: Match value must be String, number, true, false, or null"),
        Arguments.of("{'key':[{'wrong-operator':true}]}", ATTRS, "FilterPolicy: Unrecognized match type wrong-operator"),
        Arguments.of("{'key':[{'suffix':'value','prefix':'value2'}]}", ATTRS, "FilterPolicy: Only one key allowed in match expression"),
        // test_validate_policy_string_operators
        Arguments.of("{'key':[]}", ATTRS, "FilterPolicy: Empty arrays are not allowed"),
        Arguments.of("{'key':[{'suffix':100}]}", ATTRS, "FilterPolicy: suffix match pattern must be a string"),
        Arguments.of("{'key':[{'suffix':null}]}", ATTRS, "FilterPolicy: suffix match pattern must be a string"),
        Arguments.of("{'key':{'suffix':'value'}}", ATTRS, "FilterPolicy: \"suffix\" must be an object or an array"),
        Arguments.of("{'key':[{'suffix':[]}]}", ATTRS, "FilterPolicy: suffix match pattern must be a string"),
        Arguments.of("{'key':[{'suffix':['test','test2']}]}", ATTRS, "FilterPolicy: suffix match pattern must be a string"),
        Arguments.of("{'key':{'suffix':'value','prefix':'value'}}", ATTRS, "FilterPolicy: \"suffix\" must be an object or an array"),
        Arguments.of("{'key':{'not-an-operator':'value'}}", ATTRS, "FilterPolicy: \"not-an-operator\" must be an object or an array"),
        Arguments.of("{'key':[{'cidr':['bad-filter']}]}", ATTRS, "FilterPolicy: prefix match pattern must be a string"),
        Arguments.of("{'key':[{'cidr':'bad-filter'}]}", ATTRS, "FilterPolicy: Malformed CIDR, one '/' required"),
        Arguments.of("{'key':[{'cidr':'bad-filter/64'}]}", ATTRS, "FilterPolicy: Nonstandard IP address: bad-filter"),
        Arguments.of("{'key':[{'cidr':'bad-/64filter'}]}", ATTRS, "FilterPolicy: Malformed CIDR, mask bits must be an integer"),
        Arguments.of("{'key':[{'cidr':'xx.11.xx/8'}]}", ATTRS, "FilterPolicy: Nonstandard IP address: xx.11.xx"),
        Arguments.of("{'key':[{'cidr':'xxxx:db8:1234:1a00::/64'}]}", ATTRS, "FilterPolicy: Nonstandard IP address: xxxx:db8:1234:1a00::"),
        // test_validate_policy_numeric_operator
        Arguments.of("{'key':[{'numeric':[]}]}", ATTRS, "FilterPolicy: Invalid member in numeric match: ]"),
        Arguments.of("{'key':[{'numeric':['operator']}]}", ATTRS, "FilterPolicy: Unrecognized numeric range operator: operator"),
        Arguments.of("{'key':[{'numeric':[1,'<=']}]}", ATTRS, "FilterPolicy: Invalid member in numeric match: 1"),
        Arguments.of("{'key':[{'numeric':['=','000']}]}", ATTRS, "FilterPolicy: Value of equals must be numeric"),
        Arguments.of("{'key':[{'numeric':['>=']}]}", ATTRS, "FilterPolicy: Value of >= must be numeric"),
        Arguments.of("{'key':[{'numeric':['<',100,'>',10]}]}", ATTRS, "FilterPolicy: Too many elements in numeric expression"),
        Arguments.of("{'key':[{'numeric':['>=',1,'>',2]}]}", ATTRS, "FilterPolicy: Bad numeric range operator: >"),
        Arguments.of("{'key':[{'numeric':['>',3,'<',1]}]}", ATTRS, "FilterPolicy: Bottom must be less than top"),
        Arguments.of("{'key':[{'numeric':['>',20,'<=']}]}", ATTRS, "FilterPolicy: Value of <= must be numeric"),
        Arguments.of("{'key':[{'numeric':['>',20,30]}]}", ATTRS, "FilterPolicy: Bad value in numeric range: 30"),
        Arguments.of("{'key':[{'numeric':['>',20,'test']}]}", ATTRS, "FilterPolicy: Bad numeric range operator: test"),
        Arguments.of("{'key':[{'numeric':['>','20','<','30']}]}", ATTRS, "FilterPolicy: Value of > must be numeric"),
        Arguments.of("{'key':[{'numeric':['>',20,'<','30']}]}", ATTRS, "FilterPolicy: Value of < must be numeric"),
        Arguments.of("{'key':[{'numeric':['>',20,'<',30,'<',50]}]}", ATTRS, "FilterPolicy: Too many terms in numeric range expression"),
        // test_validate_policy_exists_operator
        Arguments.of("{'key':[{'exists':null}]}", ATTRS, "FilterPolicy: exists match pattern must be either true or false."),
        Arguments.of("{'key':[{'exists':'no'}]}", ATTRS, "FilterPolicy: exists match pattern must be either true or false."),
        // test_validate_policy_nested_anything_but_operator
        Arguments.of("{'key':[{'anything-but':{'wrong-operator':null}}]}", ATTRS, "FilterPolicy: Unsupported anything-but pattern: wrong-operator"),
        Arguments.of("{'key':[{'anything-but':{'suffix':'test'}}]}", ATTRS, "FilterPolicy: Unsupported anything-but pattern: suffix"),
        Arguments.of("{'key':[{'anything-but':{'exists':false}}]}", ATTRS, "FilterPolicy: Unsupported anything-but pattern: exists"),
        Arguments.of("{'key':[{'anything-but':{'prefix':false}}]}", ATTRS, "FilterPolicy: prefix match pattern must be a string"),
        // test_policy_complexity
        Arguments.of("{'key':[" + values(151) + "]}", ATTRS, "FilterPolicy: Filter policy is too complex"),
        Arguments.of("{'key1':[" + values(100) + "],'key2':[" + values(51) + "]}", ATTRS, "FilterPolicy: Filter policy is too complex"),
        Arguments.of("{'key1':['value1'],'key2':['value2'],'key3':['value3'],'key4':['value4'],'key5':['value5'],'key6':['value6']}",
            ATTRS, "FilterPolicy: Filter policy can not have more than 5 keys"),
        // test_policy_complexity_with_or: (4 * 6) + (4 * 4 * 4) + (4 * 4 * 4) = 152
        Arguments.of("{'source':['aws.cloudwatch','aws.events','aws.test','aws.test2'],'$or':[{'metricName':['CPUUtilization','ReadLatency','t1','t2','t3','t4']},"
            + "{'metricType':['MetricType','TestType','TestType2','TestType3'],'$or':[{'metricId':[1234,4321,5678,9012]},{'spaceId':[1,2,3,4]}]}]}",
            ATTRS, "FilterPolicy: Filter policy is too complex"),
        // ... and nested in body scope, each value count times its depth: 160
        Arguments.of("{'$or':[{'metricName':['CPUUtilization','ReadLatency','TestValue']},{'namespace':['AWS/EC2','AWS/ES']}],"
            + "'detail':{'scope':['Service','Test'],'$or':[{'source':['aws.cloudwatch']},{'type':['CloudWatch Alarm State Change','TestValue','TestValue2']}]}}",
            BODY, "FilterPolicy: Filter policy is too complex"),
        // test_sub_filter_policy_nested_property (SetSubscriptionAttributes, default scope)
        Arguments.of("{'object':{'key':[{'prefix':'auto-'}]}}", ATTRS, "Filter policy scope MessageAttributes does not support nested filter policy"),
        // test_sub_filter_policy_nested_property_constraints (body scope): 3 x 4 x 2 x 3 x 1 x 3 = 216
        Arguments.of("{'key_a':{'key_b':{'key_c':['value_one','value_two','value_three','value_four']}},'key_d':{'key_e':['value_one','value_two','value_three']},"
            + "'key_f':['value_one','value_two','value_three']}", BODY, "FilterPolicy: Filter policy is too complex"),
        Arguments.of("{'key_a':['value_one'],'key_b':['value_two'],'key_c':['value_three'],'key_d':['value_four'],'key_e':['value_five'],'key_f':['value_six']}",
            BODY, "FilterPolicy: Filter policy can not have more than 5 keys"),
        Arguments.of("{'key_a':'value_one'}", BODY, "FilterPolicy: \"key_a\" must be an object or an array"));
  }

  static String values(int n) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      b.append(i == 0 ? "" : ",").append("'value").append(i).append("'");
    }
    return b.toString();
  }

  @ParameterizedTest
  @MethodSource("refusedPolicies")
  void refusesWithAwsText(String policy, FilterPolicyScope scope, String reason) {
    FilterPolicyException e = assertThrows(FilterPolicyException.class, () -> FilterPolicy.parse(json(policy), scope));
    assertEquals(reason, e.getMessage());
    assertEquals("Invalid parameter: Attributes Reason: " + reason, e.subscribeMessage());
    assertEquals("Invalid parameter: " + reason, e.setAttributesMessage());
  }

  static Stream<Arguments> acceptedPolicies() {
    return Stream.of(
        // test_policy_complexity_with_or: (3 * 6) + (3 * 4 * 4) + (3 * 4 * 7) = 150, accepted
        Arguments.of("{'source':['aws.cloudwatch','aws.events','aws.test'],'$or':[{'metricName':['CPUUtilization','ReadLatency','TestVal','TestVal2','TestVal3','TestVal4']},"
            + "{'metricType':['MetricType','TestType','TestType2','TestType3'],'$or':[{'metricId':[1234,4321,5678,9012]},{'spaceId':[1,2,3,4,5,6,7]}]}]}", ATTRS),
        Arguments.of("{'key':[{'anything-but':{'prefix':'test-'}}]}", ATTRS),
        Arguments.of("{'key':[{'anything-but':['test','test2']}]}", ATTRS),
        Arguments.of("{'key':[{'anything-but':'test'}]}", ATTRS),
        Arguments.of("{'object':{'key':[{'prefix':'auto-'}]}}", BODY));
  }

  @ParameterizedTest
  @MethodSource("acceptedPolicies")
  void acceptsWhatAwsAccepted(String policy, FilterPolicyScope scope) {
    assertEquals(scope, FilterPolicy.parse(json(policy), scope).scope());
  }

  @org.junit.jupiter.api.Test
  void refusesAnUnknownScopeWithAwsText() {
    FilterPolicyException e = assertThrows(FilterPolicyException.class, () -> FilterPolicyScope.fromAttributeValue("RandomValue"));
    assertEquals("Invalid parameter: FilterPolicyScope: Invalid value [RandomValue]. Please use either MessageBody or MessageAttributes",
        e.setAttributesMessage());
  }

  static Stream<Arguments> attributeMessages() {
    String range = "{'attr1':[{'numeric':['>',0,'<=',100]}]}";
    String exists = "{'store':[{'exists':true}]}";
    String notExists = "{'store':[{'exists':false}]}";
    String value1 = "{'store':['value1']}";
    String nullOrAnythingBut = "{'attr1':[null,{'anything-but':'whatever'}]}";
    return Stream.of(
        // test_filter_policy, test_filter_policy_for_batch
        Arguments.of(range, attrs("attr1", "Number", "99"), true),
        Arguments.of(range, attrs("attr1", "Number", "111"), false),
        Arguments.of(nullOrAnythingBut, attrs(), false),
        // test_exists_filter_policy
        Arguments.of(exists, attrs("store", "Number", "99", "def", "Number", "99"), true),
        Arguments.of(exists, attrs("attr1", "Number", "111"), false),
        Arguments.of(notExists, attrs("def", "Number", "99"), true),
        Arguments.of(notExists, attrs("store", "Number", "99", "def", "Number", "99"), false),
        // test_exists_filter_policy_attributes_array
        Arguments.of(value1, attrs("store", "String", "value1"), true),
        Arguments.of(value1, attrs("store", "String.Array", "[\"value1\", \"value2\"]"), true),
        Arguments.of(value1, attrs("store", "String.Array", "[\"value2\", \"value3\"]"), false));
  }

  @ParameterizedTest
  @MethodSource("attributeMessages")
  void matchesAttributesAsAwsDelivered(String policy, Map<String, FilterAttribute> attributes, boolean delivered) {
    assertEquals(delivered, FilterPolicy.parse(json(policy), ATTRS).matches(attributes));
  }

  static Stream<Arguments> bodyMessages() {
    String nested = "{'object':{'key':[{'prefix':'auto-'},'hardcodedvalue'],'nested_key':[{'exists':false}]},'test':[{'exists':false}]}";
    String dotted = "{'object.nested':['string.value']}";
    String deepDotted = "{'object.nested.test':['string.value']}";
    String queue1 = "{'headers':{'route-to':['queue1']}}";
    String queue2 = "{'headers':{'route-to':['queue2']}}";
    String s3 = "{'Records':{'s3':{'object':{'key':[{'prefix':'auto-'}]}},'eventName':[{'prefix':'ObjectCreated:'}]}}";
    String or = "{'$or':[{'metricName':['CPUUtilization','ReadLatency']},{'namespace':['AWS/EC2','AWS/ES']}],"
        + "'detail':{'scope':['Service'],'$or':[{'source':['aws.cloudwatch']},{'type':['CloudWatch Alarm State Change']}]}}";
    String cidr = "{'detail':{'$or':[{'sourceIPAddress':[{'cidr':'10.0.0.0/24'}]},{'sourceIPAddressV6':[{'cidr':'2001:db8:1234:1a00::/64'}]}]}}";
    String s3Event = "{'Records':[{'eventSource':'aws:s3','eventName':'%s','s3':{'bucket':{'name':'b'},'object':{'key':'%s','size':17}}}]}";
    return Stream.of(
        // test_filter_policy_on_message_body
        Arguments.of(nested, "{'object':{'key':'auto-test'}}", true),
        Arguments.of(nested, "{'object':{'key':'hardcodedvalue'}}", true),
        Arguments.of(nested, "{'object':{'key':'test-auto'}}", false),
        Arguments.of(nested, "{'object':{'key':'auto-test'},'test':'just-exists'}", false),
        Arguments.of(nested, "{'object':{'key':'auto-test','nested_key':'just-exists'}}", false),
        Arguments.of(nested, "{'object':{'test':'auto-test'}}", false),
        Arguments.of(nested, "{'test':'auto-test'}", false),
        Arguments.of(nested, "Regular string message", false),
        Arguments.of(nested, "'Regular string message'", false),
        // test_filter_policy_on_message_body_dot_attribute
        Arguments.of(dotted, "{'object':{'nested':'string.value'}}", true),
        Arguments.of(dotted, "{'object.nested':'string.value'}", true),
        Arguments.of(dotted, "{'object':{'nested':'test-auto'}}", false),
        Arguments.of(deepDotted, "{'object':{'nested':{'test':'string.value'}}}", true),
        Arguments.of(deepDotted, "{'object.nested.test':'string.value'}", true),
        Arguments.of(deepDotted, "{'object.nested':{'test':'string.value'}}", true),
        Arguments.of(deepDotted, "{'object':{'nested.test':'string.value'}}", true),
        Arguments.of(deepDotted, "{'object':{'nested':{'test':'string.notvalue'}}}", false),
        // test_filter_policy_on_message_body_array_attributes: each queue gets 2 of 4
        Arguments.of(queue1, "{'headers':{'route-to':['queue3']}}", false),
        Arguments.of(queue1, "{'headers':{'route-to':['queue1']}}", true),
        Arguments.of(queue1, "{'headers':{'route-to':['queue2']}}", false),
        Arguments.of(queue1, "{'headers':{'route-to':['queue1','queue2']}}", true),
        Arguments.of(queue2, "{'headers':{'route-to':['queue2']}}", true),
        Arguments.of(queue2, "{'headers':{'route-to':['queue1','queue2']}}", true),
        // test_filter_policy_on_message_body_array_of_object_attributes: 2 of 4 delivered
        Arguments.of(s3, "{'Records':[{'eventName':'ObjectCreated:Put','s3':{'object':[[{'key':'auto-insurance-2314.xml','size':17}]]}},"
            + "{'eventName':'ObjectRemoved:Delete','s3':{'object':{'key':'home-insurance-2314.xml','size':17}}}]}", true),
        Arguments.of(s3, String.format(s3Event, "ObjectRemoved:Delete", "auto-insurance-2314.xml"), false),
        Arguments.of(s3, String.format(s3Event, "ObjectCreated:Put", "home-insurance-2314.xml"), false),
        Arguments.of(s3, String.format(s3Event, "ObjectCreated:Put", "auto-insurance-2314.xml"), true),
        // test_filter_policy_on_message_body_or_attribute: 5 of 12 delivered
        Arguments.of(or, "{'metricName':'CPUUtilization','detail':{'scope':'aws.cloudwatch','type':'CloudWatch Alarm State Change'}}", false),
        Arguments.of(or, "{'metricName':'CPUUtilization','detail':{'scope':'Service','type':'CPUUtilization'}}", false),
        Arguments.of(or, "{'metricName':'CPUUtilization','detail':{'type':'CloudWatch Alarm State Change'}}", false),
        Arguments.of(or, "{'metricName':'CPUUtilization','detail':{'scope':'Service'}}", false),
        Arguments.of(or, "{'metricName':'CPUUtilization','scope':'Service'}", false),
        Arguments.of(or, "{'metricName':'AWS/EC2','detail':{'scope':'Service','type':'CloudWatch Alarm State Change'}}", false),
        Arguments.of(or, "{'namespace':'CPUUtilization','detail':{'scope':'Service','type':'CloudWatch Alarm State Change'}}", false),
        Arguments.of(or, "{'metricName':'CPUUtilization','detail':{'scope':'Service','source':'aws.cloudwatch'}}", true),
        Arguments.of(or, "{'metricName':'ReadLatency','detail':{'scope':'Service','source':'aws.cloudwatch'}}", true),
        Arguments.of(or, "{'namespace':'AWS/EC2','detail':{'scope':'Service','source':'aws.cloudwatch'}}", true),
        Arguments.of(or, "{'namespace':'AWS/ES','detail':{'scope':'Service','source':'aws.cloudwatch'}}", true),
        Arguments.of(or, "{'metricName':'CPUUtilization','detail':{'scope':'Service','type':'CloudWatch Alarm State Change'}}", true),
        // test_filter_policy_empty_array_payload
        Arguments.of("{'detail':{'eventVersion':['']}}", "{'version':'0','resources':[],'detail':{'eventVersion':'','responseElements':null}}", true),
        // test_filter_policy_ip_address_condition: 2 of 4 delivered
        Arguments.of(cidr, "{'id':'1','detail':{'sourceIPAddress':'10.0.0.255'}}", true),
        Arguments.of(cidr, "{'id':'2','detail':{'sourceIPAddress':'10.0.0.256'}}", false),
        Arguments.of(cidr, "{'id':'3','detail':{'sourceIPAddressV6':'2001:0db8:1234:1a00:0000:0000:0000:0000'}}", true),
        Arguments.of(cidr, "{'id':'4','detail':{'sourceIPAddressV6':'2001:0db8:123f:1a01:0000:0000:0000:0000'}}", false));
  }

  @ParameterizedTest
  @MethodSource("bodyMessages")
  void matchesBodiesAsAwsDelivered(String policy, String body, boolean delivered) {
    assertEquals(delivered, FilterPolicy.parse(json(policy), BODY).matchesBody(json(body)));
  }
}
