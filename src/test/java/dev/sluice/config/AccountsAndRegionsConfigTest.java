package dev.sluice.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.access.AccessEvaluator;
import dev.sluice.access.AccessRequest;
import dev.sluice.access.IdentityPolicy;
import dev.sluice.access.PolicyDocument;
import dev.sluice.access.QueuePolicy;
import dev.sluice.access.RequestContext;
import dev.sluice.access.Requester;
import dev.sluice.model.JsonText;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sqs.regions, credentials of several accounts with their permission statements (kept as given,
 * checked for shape), and predefined queues in an account and region of their own.
 */
class AccountsAndRegionsConfigTest {
  @TempDir Path dir;

  SluiceConfig file(String yaml) throws Exception {
    Path file = dir.resolve("sluice.yaml");
    Files.writeString(file, yaml);
    return ConfigLoader.load(new String[] {"--config", file.toString()}, Map.of());
  }

  static SluiceConfig env(Map<String, String> env) {
    Map<String, String> all = new HashMap<>(env);
    all.putIfAbsent("SLUICE_MANAGEMENT_TOKEN", "off");
    return ConfigLoader.load(new String[0], all);
  }

  /** The start fails on this value, naming {@code key} and never echoing {@code secret} (null: none). */
  static void refused(Map<String, String> env, String key, String secret) {
    ConfigException e = assertThrows(ConfigException.class, () -> env(env));
    assertTrue(e.getMessage().contains("'" + key + "'") || e.getMessage().contains("'" + key + "."),
        key + " -> " + e.getMessage());
    assertFalse(secret != null && e.getMessage().contains(secret), e.getMessage());
  }

  @Test
  void credentialsOfSeveralAccountsComeFromTheFileWithTheirPermissionsAsGiven() throws Exception {
    SecurityConfig security = file("""
        managementToken: off
        credentials:
          - accessKeyId: AKIDTEAMA
            secretAccessKey: team-a-secret
            accountId: "111111111111"
          - accessKeyId: AKIDTEAMB
            secretAccessKey: team-b-secret
            accountId: 222222222222
            permissions:
              - Sid: send
                Effect: Allow
                Action: [sqs:SendMessage, sqs:GetQueueUrl]
                Resource: "arn:aws:sqs:*:111111111111:orders"
              - Effect: Deny
                NotAction: sqs:DeleteQueue
                Resource: ["*"]
                Condition: {StringEquals: {"aws:SourceAccount": "111111111111"}}
        """).security();
    List<Credential> keys = security.accessKeys();
    assertEquals(List.of("AKIDTEAMA", "AKIDTEAMB"), keys.stream().map(Credential::accessKeyId).toList());
    assertEquals("111111111111", keys.get(0).accountId());
    assertEquals("222222222222", keys.get(1).accountId(), "an unquoted account id of 12 digits reads as one");
    assertSame(IdentityPolicy.FULL_ACCESS, keys.get(0).permissions(), "none listed: full access");
    // Team B's statements as the evaluator reads them, on a queue of A's whose policy lets B in.
    PolicyDocument grant = QueuePolicy.parse("{\"Statement\":{\"Effect\":\"Allow\",\"Principal\":"
        + "{\"AWS\":\"222222222222\"},\"Action\":\"sqs:*\",\"Resource\":\"*\"}}", JsonText::parseObject);
    Requester b = Requester.of("222222222222", null, keys.get(1).permissions());
    String orders = "arn:aws:sqs:us-west-2:111111111111:orders";
    assertTrue(AccessEvaluator.decide(new AccessRequest(b, "SendMessage", orders, grant, RequestContext.NONE))
        .allowed());
    assertFalse(AccessEvaluator.decide(new AccessRequest(b, "ReceiveMessage", orders, grant, RequestContext.NONE))
        .allowed(), "not among B's actions");
    assertFalse(AccessEvaluator.decide(new AccessRequest(b, "SendMessage", orders, grant,
        new RequestContext(null, "111111111111"))).allowed(), "the conditional Deny");
    assertEquals(Map.of("AKIDTEAMA", "team-a-secret", "AKIDTEAMB", "team-b-secret"), security.credentials());
    assertFalse(security.toString().contains("secret"), security.toString());
    assertFalse(keys.get(0).toString().contains("team-a-secret"), keys.get(0).toString());
  }

  @Test
  void theEnvironmentGivesTheListAsJsonAndKeyIdSecretPairsAreKeysOfTheDefaultAccount() {
    List<Credential> listed = env(Map.of("SLUICE_CREDENTIALS",
        "[{\"accessKeyId\":\"AKIDA\",\"secretAccessKey\":\"s\"}]", "SLUICE_SQS_ACCOUNT_ID", "333333333333"))
        .security().accessKeys();
    assertEquals(List.of(new Credential("AKIDA", "s", "333333333333", IdentityPolicy.FULL_ACCESS)), listed);
    List<Credential> pairs = env(Map.of("SLUICE_CREDENTIALS", "AKID1:one,AKID2:two")).security().accessKeys();
    assertEquals(List.of("000000000000", "000000000000"), pairs.stream().map(Credential::accountId).toList());
  }

  @Test
  void aCredentialOrStatementOfTheWrongShapeStopsTheStartNamingIt() {
    String key = "{\"accessKeyId\":\"AKIDA\",\"secretAccessKey\":\"hunter2\"";
    refused(Map.of("SLUICE_CREDENTIALS", "[" + key + ",\"acountId\":\"111111111111\"}]"), "credentials[0]", "hunter2");
    refused(Map.of("SLUICE_CREDENTIALS", "[" + key + ",\"accountId\":\"12345\"}]"), "credentials[0].accountId",
        "hunter2");
    refused(Map.of("SLUICE_CREDENTIALS", "[{\"accessKeyId\":\"AKIDA\"}]"), "credentials[0].secretAccessKey",
        "hunter2");
    refused(Map.of("SLUICE_CREDENTIALS", "[" + key + "}," + key + "}]"), "credentials", "hunter2");
    refused(Map.of("SLUICE_CREDENTIALS", "[" + key + ",\"permissions\":{\"Effect\":\"Allow\"}}]"),
        "credentials[0].permissions", "hunter2");
    String statement = ",\"permissions\":[{\"Effect\":\"%s\",\"Action\":%s,\"Resource\":\"*\"%s}]}]";
    refused(Map.of("SLUICE_CREDENTIALS", "[" + key + String.format(statement, "Alow", "\"sqs:*\"", "")),
        "credentials[0].permissions[0].Effect", "hunter2");
    refused(Map.of("SLUICE_CREDENTIALS", "[" + key + String.format(statement, "Allow", "[]", "")),
        "credentials[0].permissions[0].Action", "hunter2");
    refused(Map.of("SLUICE_CREDENTIALS", "[" + key + String.format(statement, "Allow", "\"sqs:*\"",
        ",\"Actions\":\"sqs:*\"")), "credentials[0].permissions[0]", "hunter2");
    refused(Map.of("SLUICE_CREDENTIALS", "[" + key + String.format(statement, "Allow", "\"sqs:*\"",
        ",\"NotResource\":\"*\"")), "credentials[0].permissions[0]", "hunter2");
    refused(Map.of("SLUICE_CREDENTIALS", "[" + key + String.format(statement, "Allow", "\"sqs:*\"",
        ",\"Condition\":{\"IpAddress\":{\"aws:SourceIp\":\"10.0.0.0/8\"}}")), "credentials[0].permissions",
        "hunter2");
    refused(Map.of("SLUICE_CREDENTIALS", "[" + key + ", oops"), "credentials", "hunter2");
  }

  @Test
  void regionsAreAListThatHoldsTheDefaultRegion() throws Exception {
    assertEquals(List.of(), env(Map.of()).sqs().regions(), "any region by default");
    assertEquals(List.of("us-east-1", "eu-west-1"),
        env(Map.of("SLUICE_SQS_REGIONS", "us-east-1, eu-west-1")).sqs().regions());
    SqsConfig fromFile = file("sqs:\n  region: eu-west-1\n  regions: [eu-west-1, eu-central-1]\n").sqs();
    assertEquals(List.of("eu-west-1", "eu-central-1"), fromFile.regions());
    assertTrue(fromFile.serves("eu-central-1") && !fromFile.serves("us-east-1"));
    refused(Map.of("SLUICE_SQS_REGIONS", "eu-west-1"), "sqs.regions", null);
    refused(Map.of("SLUICE_SQS_REGIONS", "us-east-1,us:east"), "sqs.regions", null);
    refused(Map.of("SLUICE_SQS_REGION", "US-EAST-1"), "sqs.region", null);
  }

  @Test
  void aPredefinedQueueMayLiveInAnAccountAndRegionOfItsOwn() {
    List<QueueDefinition> queues = env(Map.of("SLUICE_SQS_REGIONS", "us-east-1,us-west-2", "SLUICE_QUEUES",
        "[{\"name\":\"orders\"},{\"name\":\"orders\",\"region\":\"us-west-2\"},"
            + "{\"name\":\"orders\",\"accountId\":\"111111111111\"}]")).ops().queues();
    assertEquals(List.of("000000000000/us-east-1", "000000000000/us-west-2", "111111111111/us-east-1"),
        queues.stream().map(q -> q.accountId() + "/" + q.region()).toList());
    refused(Map.of("SLUICE_SQS_REGIONS", "us-east-1", "SLUICE_QUEUES",
        "[{\"name\":\"orders\",\"region\":\"us-west-2\"}]"), "queues[0].region", null);
    refused(Map.of("SLUICE_QUEUES", "[{\"name\":\"orders\",\"accountId\":\"abc\"}]"), "queues[0].accountId", null);
    refused(Map.of("SLUICE_QUEUES", "[{\"name\":\"orders\",\"region\":\"us-west-2\"},"
        + "{\"name\":\"orders\",\"region\":\"us-west-2\"}]"), "queues[1].name", null);
  }
}
