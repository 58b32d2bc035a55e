import dev.sluice.api.QueueKey;
import dev.sluice.engine.ShardRouter;

/**
 * Queues and shards by the server's own routing (account 000000000000, us-east-1), for scripts that
 * need a queue on a chosen cluster node. With a name: that queue's shard of SHARDS. With a prefix
 * and shards: the first name PREFIX0, PREFIX1, ... whose shard is one of them, and that shard.
 * usage: java -cp target/sluice.jar loadtest/scripts/ShardOf.java SHARDS NAME
 *        java -cp target/sluice.jar loadtest/scripts/ShardOf.java SHARDS PREFIX SHARD[,SHARD...]
 */
public class ShardOf {
  public static void main(String[] args) {
    ShardRouter router = new ShardRouter(Integer.parseInt(args[0]));
    if (args.length == 2) {
      System.out.println(router.shardOf(new QueueKey("000000000000", "us-east-1", args[1])));
      return;
    }
    java.util.Set<Integer> wanted = new java.util.HashSet<>();
    for (String s : args[2].split(",")) {
      wanted.add(Integer.parseInt(s.trim()));
    }
    for (int i = 0; ; i++) {
      String name = args[1] + i;
      int shard = router.shardOf(new QueueKey("000000000000", "us-east-1", name));
      if (wanted.contains(shard)) {
        System.out.println(name + " " + shard);
        return;
      }
    }
  }
}
