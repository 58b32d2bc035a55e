package dev.sluice.config;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The {@code sqs} section: the default account (of unauthenticated requests and of credentials given
 * as KEYID:SECRET) and the default region (of unsigned requests), and the regions this server
 * serves ({@code regions}; empty: any).
 */
public record SqsConfig(String accountId, String region, List<String> regions) {
  /** Lower-case words of letters and digits joined by hyphens, as AWS names its regions (us-gov-west-1). */
  private static final Pattern REGION_NAME = Pattern.compile("[a-z0-9]{1,20}(-[a-z0-9]{1,20}){0,5}");

  /**
   * Whether {@code s} can name a region: it appears in ARNs, so it may hold no colon, and a client
   * signing for something else (a queue name, a host) is told so rather than given a region of it.
   */
  public static boolean isRegionName(String s) {
    return s != null && REGION_NAME.matcher(s).matches();
  }

  /** Whether {@code region} names a region ({@link #isRegionName}) that this server serves. */
  public boolean servesRegionNamed(String region) {
    return isRegionName(region) && serves(region);
  }

  /** Whether requests signed for {@code region} are served here. */
  public boolean serves(String region) {
    return regions.isEmpty() || regions.contains(region);
  }
}
