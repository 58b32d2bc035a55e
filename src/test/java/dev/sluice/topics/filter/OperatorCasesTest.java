package dev.sluice.topics.filter;

import static dev.sluice.topics.filter.Messages.attrs;
import static dev.sluice.topics.filter.Messages.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each operator on its own, from the examples of AWS's pages "String value matching", "Numeric
 * value matching", "Key matching", "IP address matching" and "AND/OR logic", plus edge cases.
 */
class OperatorCasesTest {

  static Stream<Arguments> bodyCases() {
    return Stream.of(
        // exact strings: case-sensitive, strings never equal numbers
        Arguments.of("{'k':['rugby','tennis']}", "{'k':'rugby'}", true),
        Arguments.of("{'k':['rugby','tennis']}", "{'k':'Rugby'}", false),
        Arguments.of("{'k':['300']}", "{'k':300}", false),
        // exact numbers compare numerically (AWS's 301.5 and 3.015e2)
        Arguments.of("{'k':[300]}", "{'k':300.0}", true),
        Arguments.of("{'k':[300]}", "{'k':3e2}", true),
        Arguments.of("{'k':[300]}", "{'k':'300'}", false),
        Arguments.of("{'k':[{'numeric':['=',301.5]}]}", "{'k':3.015e2}", true),
        // booleans and null
        Arguments.of("{'k':[true]}", "{'k':true}", true),
        Arguments.of("{'k':[true]}", "{'k':'true'}", false),
        Arguments.of("{'k':[null]}", "{'k':null}", true),
        Arguments.of("{'k':[null]}", "{}", false),
        Arguments.of("{'k':[null]}", "{'k':'x'}", false),
        // anything-but
        Arguments.of("{'k':[{'anything-but':['rugby','tennis']}]}", "{'k':'baseball'}", true),
        Arguments.of("{'k':[{'anything-but':['rugby','tennis']}]}", "{'k':'rugby'}", false),
        Arguments.of("{'k':[{'anything-but':['rugby','tennis']}]}", "{'k':['rugby','baseball']}", true),
        Arguments.of("{'k':[{'anything-but':['rugby','tennis']}]}", "{}", false),
        Arguments.of("{'k':[{'anything-but':[100,500]}]}", "{'k':100.1}", true),
        Arguments.of("{'k':[{'anything-but':[100,500]}]}", "{'k':1e2}", false),
        Arguments.of("{'k':[{'anything-but':[100,500]}]}", "{'k':[100,50]}", true),
        Arguments.of("{'k':[{'anything-but':'x'}]}", "{'k':null}", false),
        Arguments.of("{'k':[{'anything-but':{'prefix':'bas'}}]}", "{'k':'rugby'}", true),
        Arguments.of("{'k':[{'anything-but':{'prefix':'bas'}}]}", "{'k':'baseball'}", false),
        Arguments.of("{'k':[{'anything-but':['rugby']},{'exists':false}]}", "{}", true),
        // prefix, suffix, equals-ignore-case: strings only
        Arguments.of("{'k':[{'prefix':'bas'}]}", "{'k':'basketball'}", true),
        Arguments.of("{'k':[{'prefix':'bas'}]}", "{'k':'rugby'}", false),
        Arguments.of("{'k':[{'prefix':'1'}]}", "{'k':123}", false),
        Arguments.of("{'k':[{'suffix':'ball'}]}", "{'k':'baseball'}", true),
        Arguments.of("{'k':[{'suffix':'ball'}]}", "{'k':'ballet'}", false),
        Arguments.of("{'k':[{'equals-ignore-case':'RuGbY'}]}", "{'k':'rugby'}", true),
        Arguments.of("{'k':[{'equals-ignore-case':'rugby'}]}", "{'k':'rugbyx'}", false),
        // numeric comparisons and ranges: bounds inclusive only with <= and >=
        Arguments.of("{'k':[{'numeric':['<',0]}]}", "{'k':-0.5}", true),
        Arguments.of("{'k':[{'numeric':['<',0]}]}", "{'k':0}", false),
        Arguments.of("{'k':[{'numeric':['<=',0]}]}", "{'k':0}", true),
        Arguments.of("{'k':[{'numeric':['>',0,'<=',150]}]}", "{'k':150}", true),
        Arguments.of("{'k':[{'numeric':['>',0,'<=',150]}]}", "{'k':0}", false),
        Arguments.of("{'k':[{'numeric':['>=',0,'<',150]}]}", "{'k':0}", true),
        Arguments.of("{'k':[{'numeric':['>=',0,'<',150]}]}", "{'k':150}", false),
        Arguments.of("{'k':[{'numeric':['>',0]}]}", "{'k':'5'}", false),
        // exists looks at leaves: an object or an empty array is not a value
        Arguments.of("{'k':[{'exists':true}]}", "{'k':null}", true),
        Arguments.of("{'k':[{'exists':true}]}", "{'k':{'a':1}}", false),
        Arguments.of("{'k':[{'exists':true}]}", "{'k':[]}", false),
        Arguments.of("{'k':[{'exists':false}]}", "{'other':1}", true),
        // cidr
        Arguments.of("{'k':[{'cidr':'10.0.0.0/24'}]}", "{'k':'10.0.0.0'}", true),
        Arguments.of("{'k':[{'cidr':'10.0.0.0/24'}]}", "{'k':'10.0.1.0'}", false),
        Arguments.of("{'k':[{'cidr':'10.0.0.7/8'}]}", "{'k':'10.200.3.4'}", true),
        Arguments.of("{'k':[{'cidr':'10.0.0.0/24'}]}", "{'k':'::ffff:10.0.0.1'}", false),
        Arguments.of("{'k':[{'cidr':'2001:db8::/32'}]}", "{'k':'2001:DB8:ffff::1'}", true),
        Arguments.of("{'k':[{'cidr':'2001:db8::/32'}]}", "{'k':'2001:db9::1'}", false),
        Arguments.of("{'k':[{'cidr':'::/0'}]}", "{'k':'::1'}", true),
        Arguments.of("{'k':[{'cidr':'10.0.0.0/24'}]}", "{'k':'host.example'}", false),
        // AND between keys, OR within a key, $or at the top and nested
        Arguments.of("{'a':['x'],'b':['y']}", "{'a':'x','b':'y'}", true),
        Arguments.of("{'a':['x'],'b':['y']}", "{'a':'x'}", false),
        Arguments.of("{'a':['x',{'prefix':'z'}]}", "{'a':'zed'}", true),
        Arguments.of("{'$or':[{'a':['x']},{'b':['y']}]}", "{'b':'y'}", true),
        Arguments.of("{'$or':[{'a':['x']},{'b':['y']}]}", "{'c':'y'}", false),
        Arguments.of("{'d':{'$or':[{'a':['x']},{'b':{'c':[1]}}]}}", "{'d':{'b':{'c':1}}}", true),
        Arguments.of("{'d':{'$or':[{'a':['x']},{'b':{'c':[1]}}]}}", "{'b':{'c':1}}", false),
        // array elements are matched independently, even of different objects
        Arguments.of("{'r':{'a':['1'],'b':['2']}}", "{'r':[{'a':'1'},{'b':'2'}]}", true),
        // not a JSON object: nothing matches, not even exists false
        Arguments.of("{'k':[{'exists':false}]}", "[1,2]", false),
        Arguments.of("{'k':[{'exists':false}]}", "not json", false));
  }

  @ParameterizedTest
  @MethodSource("bodyCases")
  void body(String policy, String body, boolean expected) {
    assertEquals(expected, FilterPolicy.parse(json(policy), FilterPolicyScope.MESSAGE_BODY).matchesBody(json(body)));
  }

  static Stream<Arguments> attributeCases() {
    return Stream.of(
        Arguments.of("{'k':['rugby']}", attrs("k", "String", "rugby"), true),
        Arguments.of("{'k':['rugby']}", attrs("k", "String.custom", "rugby"), true),
        Arguments.of("{'k':['99']}", attrs("k", "Number", "99"), false),
        Arguments.of("{'k':[99]}", attrs("k", "Number", "99.0"), true),
        Arguments.of("{'price_usd':[{'numeric':['=',301.5]}]}", attrs("price_usd", "Number", "3.015e2"), true),
        Arguments.of("{'k':[{'numeric':['>',1]}]}", attrs("k", "String", "5"), false),
        Arguments.of("{'k':[{'prefix':'9'}]}", attrs("k", "Number", "99"), false),
        Arguments.of("{'k':['rugby','tennis']}", attrs("k", "String.Array", "[\"rugby\",\"tennis\"]"), true),
        Arguments.of("{'k':['rugby']}", attrs("k", "String.Array", "[\"baseball\"]"), false),
        Arguments.of("{'k':[{'anything-but':[100,500]}]}", attrs("k", "String.Array", "[100,50]"), true),
        Arguments.of("{'k':[{'anything-but':[100,500]}]}", attrs("k", "Number", "100"), false),
        Arguments.of("{'k':[true]}", attrs("k", "String.Array", "[true]"), true),
        Arguments.of("{'k':['x']}", attrs("k", "String.Array", "not json"), false),
        Arguments.of("{'k':['x']}", attrs("k", "Binary", "x"), false),
        Arguments.of("{'k':[{'exists':true}]}", attrs("k", "Binary", "x"), false),
        Arguments.of("{'k':[{'exists':false}]}", attrs("k", "Binary", "x"), true),
        Arguments.of("{'k':[{'exists':true}]}", attrs("k", "String.Array", "[]"), true),
        Arguments.of("{'k':[{'cidr':'192.168.0.0/16'}]}", attrs("k", "String", "192.168.4.20"), true),
        Arguments.of("{}", attrs(), true));
  }

  @ParameterizedTest
  @MethodSource("attributeCases")
  void attributes(String policy, Map<String, FilterAttribute> attributes, boolean expected) {
    assertEquals(expected, FilterPolicy.parse(json(policy), FilterPolicyScope.MESSAGE_ATTRIBUTES).matches(attributes));
  }

  static Stream<Arguments> ownRefusals() {
    return Stream.of(
        Arguments.of("{'k':[{'cidr':'10.0.0.0/'}]}", "FilterPolicy: Malformed CIDR, one '/' required"),
        Arguments.of("{'k':[{'cidr':'10.0.0.0/1/2'}]}", "FilterPolicy: Malformed CIDR, one '/' required"),
        Arguments.of("{'k':[{'cidr':'10.0.0.0/-1'}]}", "FilterPolicy: Malformed CIDR, mask bits must not be negative"),
        Arguments.of("{'k':[{'cidr':'10.0.0.0/32'}]}", "FilterPolicy: IPv4 mask bits must be < 32"),
        Arguments.of("{'k':[{'cidr':'::/128'}]}", "FilterPolicy: IPv6 mask bits must be < 128"),
        Arguments.of("{'k':[{'cidr':'1::2::3/64'}]}", "FilterPolicy: Nonstandard IP address: 1::2::3"),
        Arguments.of("{'k':[{'cidr':'256.0.0.0/8'}]}", "FilterPolicy: Nonstandard IP address: 256.0.0.0"),
        Arguments.of("{'k':[{'anything-but':[true]}]}", "FilterPolicy: Inside anything but list, start|null|boolean is not supported."),
        Arguments.of("{'k':[{'anything-but':['a',1]}]}",
            "FilterPolicy: Inside anything but list, either all values are number or string, mixed type is not supported"),
        Arguments.of("{'k':[{'equals-ignore-case':1}]}", "FilterPolicy: equals-ignore-case match pattern must be a string"),
        Arguments.of("{'k':[{'prefix':null}]}", "FilterPolicy: prefix match pattern must be a string"),
        Arguments.of("{'k':[{'numeric':['=',5,'<',10]}]}", "FilterPolicy: Too many elements in numeric expression"),
        Arguments.of("{'k':[{'numeric':['>',5,'<',5]}]}", "FilterPolicy: Bottom must be less than top"),
        Arguments.of("{'a':{'b':['x']}}", "Filter policy scope MessageAttributes does not support nested filter policy"),
        Arguments.of("{'a':{'b':[]}}", "FilterPolicy: Empty arrays are not allowed"),
        Arguments.of("{'k':[" + AwsRecordedCasesTest.values(150) + "]}", null),
        Arguments.of("{'a':[1,2,3,4,5],'b':[1,2,3,4,5],'c':[1,2,3,4,5,6]}", null),
        Arguments.of("{'a':[1,2,3,4,5],'b':[1,2,3,4,5],'c':[1,2,3,4,5,6,7]}", "FilterPolicy: Filter policy is too complex"));
  }

  /** A null reason means the policy is accepted (a limit's edge). */
  @ParameterizedTest
  @MethodSource("ownRefusals")
  void refusals(String policy, String reason) {
    if (reason == null) {
      FilterPolicy.parse(json(policy), FilterPolicyScope.MESSAGE_ATTRIBUTES);
      return;
    }
    FilterPolicyException e = assertThrows(FilterPolicyException.class,
        () -> FilterPolicy.parse(json(policy), FilterPolicyScope.MESSAGE_ATTRIBUTES));
    assertEquals(reason, e.getMessage());
  }

  @Test
  void acceptsDispatchesOnTheScope() {
    FilterPolicy body = FilterPolicy.parse(json("{'k':['v']}"), FilterPolicyScope.MESSAGE_BODY);
    FilterPolicy attributes = FilterPolicy.parse(json("{'k':['v']}"), FilterPolicyScope.MESSAGE_ATTRIBUTES);
    assertEquals(true, body.accepts(attrs(), json("{'k':'v'}")));
    assertEquals(false, body.accepts(attrs("k", "String", "v"), "{}"));
    assertEquals(true, attributes.accepts(attrs("k", "String", "v"), "{}"));
    assertEquals(false, attributes.accepts(attrs(), json("{'k':'v'}")));
  }
}
