// An SQS handler as a user writes one with Powertools for AWS Lambda (TypeScript): the event is
// validated with the parser's SqsSchema, then each record goes through the batch utility, which
// answers Lambda's partial batch response and throws when every record failed.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { SqsSchema } from '@aws-lambda-powertools/parser/schemas/sqs';

const processor = new BatchProcessor(EventType.SQS);

// A record whose body starts with "fail" fails, one starting with "retry" fails on its first
// receive only; the others succeed.
const recordHandler = async (record) => {
  const firstReceive = record.attributes.ApproximateReceiveCount === '1';
  if (record.body.startsWith('fail') || (record.body.startsWith('retry') && firstReceive)) {
    throw new Error(`record ${record.messageId} fails as its body asks`);
  }
};

export const handler = async (event, context) => {
  const parsed = SqsSchema.parse(event);
  return processPartialResponse(parsed, recordHandler, processor, { context });
};
