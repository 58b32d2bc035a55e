package dev.sluice.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class IamActionsTest {
  @ParameterizedTest(name = "{0} is authorized as sqs:{1}")
  @CsvSource({
      "SendMessage, SendMessage",
      "SendMessageBatch, SendMessage",
      "DeleteMessageBatch, DeleteMessage",
      "ChangeMessageVisibilityBatch, ChangeMessageVisibility",
      "ListQueues, ListQueues",
      "CreateQueue, CreateQueue",
      "StartMessageMoveTask, StartMessageMoveTask"})
  void batchesAreAuthorizedAsTheirSingleForm(String api, String iam) {
    assertEquals(iam, IamActions.authorizedAs(api));
  }

  @Test
  void anUnknownApiActionIsAProgrammingError() {
    assertThrows(IllegalArgumentException.class, () -> IamActions.authorizedAs("sendmessage"));
    assertThrows(IllegalArgumentException.class, () -> IamActions.authorizedAs("Publish"));
  }

  @Test
  void policiesNameActionsCaseInsensitivelyAndMayNameBatches() {
    assertTrue(IamActions.isNameable("sendmessage"));
    assertTrue(IamActions.isNameable("SENDMESSAGEBATCH"));
    assertFalse(IamActions.isNameable("SendMesage"));
    assertEquals("sqs:changemessagevisibility", IamActions.messageForm("ChangeMessageVisibility"));
  }
}
