package org.dise.center;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The PEM files of {@code acf center serve --tls-cert --tls-key} as the in-memory key store TLS
 * needs: a certificate chain and an unencrypted PKCS#8 private key (RSA, EC or Ed25519).
 */
final class PemKeys {
  private PemKeys() {}

  /** The password of the in-memory store: it never leaves this process. */
  static final String PASSWORD = "acf-center";

  private static final Pattern KEY =
      Pattern.compile("-----BEGIN ([A-Z ]*)PRIVATE KEY-----([^-]*)-----END", Pattern.DOTALL);

  static KeyStore keyStore(Path cert, Path key) throws IOException {
    try {
      Certificate[] chain;
      try (var in = Files.newInputStream(cert)) {
        chain =
            CertificateFactory.getInstance("X.509")
                .generateCertificates(in)
                .toArray(new Certificate[0]);
      }
      if (chain.length == 0) {
        throw new IOException(cert + ": no certificate in it (expected PEM)");
      }
      String text = Files.readString(key, StandardCharsets.US_ASCII);
      Matcher m = KEY.matcher(text);
      if (!m.find()) {
        throw new IOException(key + ": no PEM private key in it");
      }
      if (!m.group(1).isEmpty()) {
        throw new IOException(
            key
                + ": a "
                + m.group(1).strip()
                + " PRIVATE KEY; convert it to PKCS#8 (openssl pkcs8 -topk8 -nocrypt -in KEY)");
      }
      byte[] der = Base64.getMimeDecoder().decode(m.group(2));
      PrivateKey pk = null;
      for (String alg : new String[] {"RSA", "EC", "Ed25519"}) {
        try {
          pk = KeyFactory.getInstance(alg).generatePrivate(new PKCS8EncodedKeySpec(der));
          break;
        } catch (GeneralSecurityException e) {
          // try the next algorithm
        }
      }
      if (pk == null) {
        throw new IOException(key + ": not an RSA, EC or Ed25519 PKCS#8 key");
      }
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(null, null);
      ks.setKeyEntry("center", pk, PASSWORD.toCharArray(), chain);
      return ks;
    } catch (GeneralSecurityException e) {
      throw new IOException(cert + ", " + key + ": " + e.getMessage(), e);
    }
  }
}
