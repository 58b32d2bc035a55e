package dev.sluice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.Test;

class JvmDescriptionTest {
  @Test
  void namesTheVmItsCollectorsAndTheMaxHeap() {
    assertEquals("OpenJDK 64-Bit Server VM 25.0.3+9, garbage collector ZGC Minor Cycles, ZGC Major Cycles,"
            + " ZGC Minor Pauses, ZGC Major Pauses, max heap 4.0 GiB",
        JvmDescription.describe("OpenJDK 64-Bit Server VM", "25.0.3+9",
            List.of("ZGC Minor Cycles", "ZGC Major Cycles", "ZGC Minor Pauses", "ZGC Major Pauses"), 4L << 30));
  }

  @Test
  void describesThisJvm() {
    String line = JvmDescription.describe();
    assertTrue(line.contains(Runtime.version().toString()), line);
    assertTrue(line.contains(ManagementFactory.getGarbageCollectorMXBeans().get(0).getName()), line);
  }
}
