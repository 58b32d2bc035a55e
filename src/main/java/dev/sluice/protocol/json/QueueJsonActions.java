package dev.sluice.protocol.json;

import static dev.sluice.protocol.json.JsonOut.empty;
import static dev.sluice.protocol.json.JsonOut.object;

import dev.sluice.api.AddPermission;
import dev.sluice.api.CreateQueue;
import dev.sluice.api.DeleteQueue;
import dev.sluice.api.GetQueueAttributes;
import dev.sluice.api.GetQueueUrl;
import dev.sluice.api.ListQueueTags;
import dev.sluice.api.ListQueues;
import dev.sluice.api.PurgeQueue;
import dev.sluice.api.RemovePermission;
import dev.sluice.api.SetQueueAttributes;
import dev.sluice.api.TagQueue;
import dev.sluice.api.UntagQueue;
import java.util.Map;

/** JSON codecs of the queue-level actions (member names as in sqs-reference §2). */
final class QueueJsonActions {
  private QueueJsonActions() {}

  static void register(Map<String, JsonAction> table) {
    table.put("CreateQueue", (e, c, in, g) -> e.queues()
        .createQueue(c, new CreateQueue.Request(in.string("QueueName"), in.stringMap("Attributes"), in.stringMap("tags")))
        .map(r -> object().string("QueueUrl", r.queueUrl()).endObject()));
    table.put("GetQueueUrl", (e, c, in, g) -> e.queues()
        .getQueueUrl(c, new GetQueueUrl.Request(in.string("QueueName"), in.string("QueueOwnerAWSAccountId")))
        .map(r -> object().string("QueueUrl", r.queueUrl()).endObject()));
    table.put("DeleteQueue", (e, c, in, g) -> empty(e.queues()
        .deleteQueue(new DeleteQueue.Request(in.string("QueueUrl")))));
    table.put("ListQueues", (e, c, in, g) -> e.listing()
        .listQueues(c, new ListQueues.Request(in.string("QueueNamePrefix"), in.integer("MaxResults"), in.string("NextToken")))
        .map(r -> object().stringsIf("QueueUrls", r.queueUrls()).stringIf("NextToken", r.nextToken()).endObject()));
    table.put("GetQueueAttributes", (e, c, in, g) -> e.queues()
        .getQueueAttributes(new GetQueueAttributes.Request(in.string("QueueUrl"), in.strings("AttributeNames")))
        .map(r -> object().stringMapIf("Attributes", r.attributes()).endObject()));
    table.put("SetQueueAttributes", (e, c, in, g) -> empty(e.queues()
        .setQueueAttributes(new SetQueueAttributes.Request(in.string("QueueUrl"), in.stringMap("Attributes")))));
    table.put("TagQueue", (e, c, in, g) -> empty(e.queues()
        .tagQueue(new TagQueue.Request(in.string("QueueUrl"), in.stringMap("Tags")))));
    table.put("UntagQueue", (e, c, in, g) -> empty(e.queues()
        .untagQueue(new UntagQueue.Request(in.string("QueueUrl"), in.strings("TagKeys")))));
    table.put("ListQueueTags", (e, c, in, g) -> e.queues()
        .listQueueTags(new ListQueueTags.Request(in.string("QueueUrl")))
        .map(r -> object().stringMapIf("Tags", r.tags()).endObject()));
    table.put("PurgeQueue", (e, c, in, g) -> empty(e.queues()
        .purgeQueue(new PurgeQueue.Request(in.string("QueueUrl")))));
    table.put("AddPermission", (e, c, in, g) -> empty(e.queues()
        .addPermission(new AddPermission.Request(
            in.string("QueueUrl"), in.string("Label"), in.strings("AWSAccountIds"), in.strings("Actions")))));
    table.put("RemovePermission", (e, c, in, g) -> empty(e.queues()
        .removePermission(new RemovePermission.Request(in.string("QueueUrl"), in.string("Label")))));
  }
}
