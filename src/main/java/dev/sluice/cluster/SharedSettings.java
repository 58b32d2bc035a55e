package dev.sluice.cluster;

import dev.sluice.config.Credential;
import dev.sluice.config.SluiceConfig;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;

/**
 * A hash of the settings every node of a cluster must share (design page cluster.md, §2.9): the
 * default account and region, the regions served, the shard count and each credential's access key
 * id and account, and whether it has full access or listed permissions (the statements themselves
 * are not compared). Secrets are left out. Nodes write it in their member rows, so that
 * a difference (a rolling change of credentials passes through one) can be seen and logged.
 */
public final class SharedSettings {
  private SharedSettings() {}

  public static String hash(SluiceConfig cfg) {
    StringBuilder sb = new StringBuilder();
    sb.append(cfg.sqs().accountId()).append('|').append(cfg.sqs().region()).append('|').append(cfg.sqs().regions())
        .append('|').append(cfg.cluster().shards());
    List<Credential> keys = cfg.security().accessKeys().stream()
        .sorted(Comparator.comparing(Credential::accessKeyId)).toList();
    for (Credential k : keys) {
      sb.append('|').append(k.accessKeyId()).append(':').append(k.accountId()).append(':')
          .append(k.fullAccess() ? "full" : "listed");
    }
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(sb.toString().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
