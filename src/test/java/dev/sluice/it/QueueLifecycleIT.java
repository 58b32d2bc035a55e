package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.InvalidAttributeNameException;
import software.amazon.awssdk.services.sqs.model.InvalidAttributeValueException;
import software.amazon.awssdk.services.sqs.model.ListQueuesResponse;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueDeletedRecentlyException;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;
import software.amazon.awssdk.services.sqs.model.QueueNameExistsException;
import software.amazon.awssdk.services.sqs.model.SqsException;

/** Queue-level actions through the AWS SDK for Java v2. */
class QueueLifecycleIT extends SharedServerIT {
  @Test
  void createGetUrlAndDeleteAQueue() {
    String url = sqs.createQueue(b -> b.queueName("lifecycle")).queueUrl();
    assertEquals(server.queueUrl("lifecycle"), url);
    assertEquals(url, sqs.getQueueUrl(b -> b.queueName("lifecycle")).queueUrl());
    sqs.deleteQueue(b -> b.queueUrl(url));
    QueueDoesNotExistException e =
        assertThrows(QueueDoesNotExistException.class, () -> sqs.getQueueUrl(b -> b.queueName("lifecycle")));
    assertEquals("AWS.SimpleQueueService.NonExistentQueue", e.awsErrorDetails().errorCode());
    assertEquals(400, e.statusCode());
    QueueDeletedRecentlyException recent =
        assertThrows(QueueDeletedRecentlyException.class, () -> sqs.createQueue(b -> b.queueName("lifecycle")));
    assertEquals("AWS.SimpleQueueService.QueueDeletedRecently", recent.awsErrorDetails().errorCode());
  }

  @Test
  void creatingAnExistingQueueComparesAttributes() {
    String url = sqs.createQueue(b -> b.queueName("same").attributesWithStrings(Map.of("VisibilityTimeout", "40")))
        .queueUrl();
    assertEquals(url, sqs.createQueue(b -> b.queueName("same")).queueUrl());
    assertEquals(url, sqs.createQueue(b -> b.queueName("same")
        .attributesWithStrings(Map.of("VisibilityTimeout", "40"))).queueUrl());
    QueueNameExistsException e = assertThrows(QueueNameExistsException.class, () -> sqs.createQueue(b -> b
        .queueName("same").attributesWithStrings(Map.of("DelaySeconds", "5"))));
    assertEquals("QueueAlreadyExists", e.awsErrorDetails().errorCode());
    assertTrue(e.awsErrorDetails().errorMessage().endsWith("different value for attribute DelaySeconds"));
  }

  @Test
  void listQueuesFiltersByPrefixAndPages() {
    for (String n : List.of("page-a", "page-b", "page-c", "page-d", "page-e")) {
      sqs.createQueue(b -> b.queueName(n));
    }
    ListQueuesResponse all = sqs.listQueues(b -> b.queueNamePrefix("page-"));
    assertEquals(5, all.queueUrls().size());
    assertNull(all.nextToken());
    ListQueuesResponse first = sqs.listQueues(b -> b.queueNamePrefix("page-").maxResults(2));
    assertEquals(List.of(server.queueUrl("page-a"), server.queueUrl("page-b")), first.queueUrls());
    ListQueuesResponse second = sqs.listQueues(b -> b.queueNamePrefix("page-").maxResults(2).nextToken(first.nextToken()));
    assertEquals(List.of(server.queueUrl("page-c"), server.queueUrl("page-d")), second.queueUrls());
    ListQueuesResponse last = sqs.listQueues(b -> b.queueNamePrefix("page-").maxResults(2).nextToken(second.nextToken()));
    assertEquals(List.of(server.queueUrl("page-e")), last.queueUrls());
    assertNull(last.nextToken());
    assertTrue(sqs.listQueues(b -> b.queueNamePrefix("nothing-")).queueUrls().isEmpty());
    assertFalse(sqs.listQueues(b -> b.queueNamePrefix("nothing-")).hasQueueUrls());
  }

  @Test
  void aFreshQueueHasTheTwelveDefaultAttributes() {
    String url = sqs.createQueue(b -> b.queueName("defaults")).queueUrl();
    Map<String, String> a = sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNamesWithStrings("All"))
        .attributesAsStrings();
    assertEquals(12, a.size(), a.toString());
    assertEquals("30", a.get("VisibilityTimeout"));
    assertEquals("1048576", a.get("MaximumMessageSize"));
    assertEquals("345600", a.get("MessageRetentionPeriod"));
    assertEquals("true", a.get("SqsManagedSseEnabled"));
    assertEquals("arn:aws:sqs:us-east-1:000000000000:defaults", a.get("QueueArn"));
    assertEquals(10, a.get("CreatedTimestamp").length(), "epoch seconds");
    assertFalse(sqs.getQueueAttributes(b -> b.queueUrl(url)).hasAttributes());
  }

  @Test
  void setQueueAttributesValidatesAndApplies() {
    String url = sqs.createQueue(b -> b.queueName("settable")).queueUrl();
    sqs.setQueueAttributes(b -> b.queueUrl(url).attributesWithStrings(Map.of(
        "VisibilityTimeout", "45", "Policy", "{\"Version\":\"2012-10-17\",\"Statement\":[]}")));
    Map<QueueAttributeName, String> a = sqs.getQueueAttributes(b -> b.queueUrl(url)
        .attributeNames(QueueAttributeName.VISIBILITY_TIMEOUT, QueueAttributeName.POLICY)).attributes();
    assertEquals("45", a.get(QueueAttributeName.VISIBILITY_TIMEOUT));
    assertEquals("{\"Version\":\"2012-10-17\",\"Statement\":[]}", a.get(QueueAttributeName.POLICY));
    InvalidAttributeValueException bad = assertThrows(InvalidAttributeValueException.class, () -> sqs
        .setQueueAttributes(b -> b.queueUrl(url).attributesWithStrings(Map.of("VisibilityTimeout", "43201"))));
    assertEquals("Invalid value for the parameter VisibilityTimeout.", bad.awsErrorDetails().errorMessage());
    InvalidAttributeNameException unknown = assertThrows(InvalidAttributeNameException.class, () -> sqs
        .getQueueAttributes(b -> b.queueUrl(url).attributeNamesWithStrings("Foobar")));
    assertEquals("Unknown Attribute Foobar.", unknown.awsErrorDetails().errorMessage());
    assertThrows(InvalidAttributeNameException.class, () -> sqs.setQueueAttributes(b -> b.queueUrl(url)
        .attributesWithStrings(Map.of("FifoQueue", "true"))));
  }

  @Test
  void tagsAreAddedOverwrittenAndRemoved() {
    String url = sqs.createQueue(b -> b.queueName("tagged").tags(Map.of("team", "a"))).queueUrl();
    sqs.tagQueue(b -> b.queueUrl(url).tags(Map.of("team", "b", "Env", "", "env", "prod")));
    assertEquals(Map.of("team", "b", "Env", "", "env", "prod"), sqs.listQueueTags(b -> b.queueUrl(url)).tags());
    sqs.untagQueue(b -> b.queueUrl(url).tagKeys("team", "Env", "env", "unknown"));
    assertFalse(sqs.listQueueTags(b -> b.queueUrl(url)).hasTags());
    SqsException reserved = assertThrows(SqsException.class, () -> sqs.tagQueue(b -> b.queueUrl(url)
        .tags(Map.of("aws:x", "y"))));
    assertEquals("InvalidParameterValue", reserved.awsErrorDetails().errorCode());
  }

  @Test
  void permissionsAreStatementsOfThePolicy() {
    String url = sqs.createQueue(b -> b.queueName("permitted")).queueUrl();
    sqs.addPermission(b -> b.queueUrl(url).label("send").awsAccountIds("111122223333").actions("SendMessage"));
    String policy = sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNames(QueueAttributeName.POLICY))
        .attributes().get(QueueAttributeName.POLICY);
    assertTrue(policy.contains("\"Sid\":\"send\""), policy);
    assertTrue(policy.contains("\"AWS\":\"arn:aws:iam::111122223333:root\""), policy);
    assertTrue(policy.contains("\"Action\":\"SQS:SendMessage\""), policy);
    SqsException dup = assertThrows(SqsException.class, () -> sqs.addPermission(b -> b.queueUrl(url).label("send")
        .awsAccountIds("1").actions("SendMessage")));
    assertEquals("Value send for parameter Label is invalid. Reason: Already exists.", dup.awsErrorDetails().errorMessage());
    sqs.removePermission(b -> b.queueUrl(url).label("send"));
    assertFalse(sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNamesWithStrings("All"))
        .attributesAsStrings().containsKey("Policy"));
  }

  @Test
  void aBareQueueNameWorksAsQueueUrl() {
    sqs.createQueue(b -> b.queueName("bare"));
    sqs.sendMessage(b -> b.queueUrl("bare").messageBody("x"));
    assertEquals(1, sqs.receiveMessage(b -> b.queueUrl("bare")).messages().size());
  }
}
