// Usage: node subscribe-and-ack.js <sluice base URL> <queue name>
// Prints "subscribed" once its subscription is made, then one JSON line for the first message
// pushed to it, after acknowledging it. Exits 0 on success.
const EventBus = require('@vertx/eventbus-bridge-client.js');

const [baseUrl, queueName] = process.argv.slice(2);
const eb = new EventBus(baseUrl + '/eventbus');
const give = (code, text) => { (code === 0 ? console.log : console.error)(text); process.exit(code); };
setTimeout(() => give(2, 'timed out'), 30000);

eb.onopen = () => {
  eb.send('sluice.subscribe', { queueName: queueName, prefetch: 5 }, {}, (err, reply) => {
    if (err) give(1, 'subscribe failed: ' + JSON.stringify(err));
    const sub = reply.body;
    eb.registerHandler(sub.address, (e, msg) => {
      if (e) give(1, 'push failed: ' + JSON.stringify(e));
      const m = msg.body;
      eb.send('sluice.ack', { subscription: sub.subscription, receiptHandle: m.receiptHandle }, {}, (ackErr) => {
        if (ackErr) give(1, 'ack failed: ' + JSON.stringify(ackErr));
        give(0, JSON.stringify({ messageId: m.messageId, body: m.body, receiveCount: m.receiveCount }));
      });
    });
    console.log('subscribed');
  });
};
