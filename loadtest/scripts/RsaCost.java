import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;

/**
 * What signing an SNS envelope costs on this machine: the time to make an RSA-2048 key, and one
 * signature of a 300-byte text with each of SNS's signature versions (SHA1withRSA for version 1,
 * SHA256withRSA for 2), averaged over 2,000 after 2,000 of warm-up, on one thread.
 * usage: java loadtest/scripts/RsaCost.java
 */
public class RsaCost {
  public static void main(String[] args) throws Exception {
    KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
    g.initialize(2048);
    long t0 = System.nanoTime();
    KeyPair pair = g.generateKeyPair();
    System.out.printf("RSA-2048 key made in %.0f ms%n", (System.nanoTime() - t0) / 1e6);
    byte[] text = new byte[300];
    for (String algorithm : new String[] {"SHA1withRSA", "SHA256withRSA"}) {
      for (int round = 0; round < 2; round++) {
        long start = System.nanoTime();
        for (int i = 0; i < 2000; i++) {
          Signature s = Signature.getInstance(algorithm);
          s.initSign(pair.getPrivate());
          s.update(text);
          s.sign();
        }
        if (round == 1) {
          System.out.printf("%s: %.0f µs a signature%n", algorithm, (System.nanoTime() - start) / 1e3 / 2000);
        }
      }
    }
  }
}
