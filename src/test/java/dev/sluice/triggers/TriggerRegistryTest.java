package dev.sluice.triggers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.api.QueueKey;
import dev.sluice.api.triggers.LambdaErrorCode;
import dev.sluice.api.triggers.LambdaException;
import dev.sluice.model.QueueLimit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** One shard's triggers: one per queue and URL, the server-wide limit, not-found answers, restores. */
class TriggerRegistryTest {
  static final QueueKey QUEUE = new QueueKey("000000000000", "us-east-1", "orders");

  static Trigger trigger(QueueKey queue, String url) {
    return new Trigger(UUID.randomUUID(), "000000000000", queue, TriggerSettings.check(null, null, null, null, false),
        TargetSettings.check(url, null, null, null, null, null), List.of(), true, Trigger.USER_INITIATED, "api", 0);
  }

  @Test
  void aQueueAndURLHaveOneTrigger() {
    TriggerRegistry r = new TriggerRegistry(new QueueLimit(10));
    Trigger first = trigger(QUEUE, "http://h/a");
    r.add(first);
    r.add(trigger(QUEUE, "http://h/b"));
    r.add(trigger(new QueueKey("000000000000", "us-east-1", "other"), "http://h/a"));
    LambdaException e = assertThrows(LambdaException.class, () -> r.add(trigger(QUEUE, "http://h/a")));
    assertEquals(LambdaErrorCode.RESOURCE_CONFLICT, e.code());
    assertEquals("An event source mapping with SQS arn (\" arn:aws:sqs:us-east-1:000000000000:orders \") and"
        + " function (\" http://h/a \") already exists. Please update or delete the existing mapping with UUID "
        + first.id(), e.getMessage());
    assertEquals(2, r.of(QUEUE).size());
    Trigger moved = r.of(QUEUE).stream().filter(t -> t.target().url().equals("http://h/b")).findFirst().get();
    Trigger clash = new Trigger(moved.id(), moved.owner(), QUEUE, moved.settings(),
        TargetSettings.check("http://h/a", null, null, null, null, null), List.of(), true, Trigger.USER_INITIATED,
        "api", 1);
    assertEquals(LambdaErrorCode.RESOURCE_CONFLICT, assertThrows(LambdaException.class, () -> r.replace(clash)).code(),
        "an update may not take another trigger's URL");
  }

  @Test
  void theServerWideLimitHoldsAndADeleteFreesItsSlot() {
    QueueLimit limit = new QueueLimit(2);
    TriggerRegistry a = new TriggerRegistry(limit.share());
    TriggerRegistry b = new TriggerRegistry(limit.share());
    Trigger t = trigger(QUEUE, "http://h/a");
    a.add(t);
    b.add(trigger(QUEUE, "http://h/b"));
    LambdaException e = assertThrows(LambdaException.class, () -> a.add(trigger(QUEUE, "http://h/c")));
    assertEquals("Sluice's limit of 2 triggers is reached.", e.getMessage());
    a.remove(t.id());
    a.add(trigger(QUEUE, "http://h/c"));
    assertEquals(2, limit.queues());
  }

  @Test
  void anUnknownIdIsLambdasResourceNotFound() {
    TriggerRegistry r = new TriggerRegistry(new QueueLimit(10));
    assertNull(r.find(UUID.randomUUID()));
    for (Runnable call : List.<Runnable>of(() -> r.get(UUID.randomUUID()), () -> r.remove(UUID.randomUUID()),
        () -> r.replace(trigger(QUEUE, "http://h/a")))) {
      LambdaException e = assertThrows(LambdaException.class, call::run);
      assertEquals(LambdaErrorCode.RESOURCE_NOT_FOUND, e.code());
      assertEquals("The resource you requested does not exist.", e.getMessage());
    }
  }

  @Test
  void aRestoredTriggerTakesItsPlaceWhateverTheLimit() {
    QueueLimit limit = new QueueLimit(1);
    TriggerRegistry r = new TriggerRegistry(limit);
    r.add(trigger(QUEUE, "http://h/a"));
    Trigger recovered = trigger(QUEUE, "http://h/b");
    r.restore(recovered);
    r.restore(recovered);
    assertEquals(2, r.all().size());
    assertEquals(2, limit.queues(), "counted once");
  }
}
