package org.dise.center;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The upload format: a part reads back as written, and each kind of damage has its status. */
class UploadCodecTest {
  static final Upload PART = LoadTest.part("dev1", 0, 5, new SplittableRandom(1));

  @Test
  void theIntegerAndCountChecksAgreeWithTheFormatsRule() {
    // The hand-written checks against the regex and Long.parseLong, on edge cases and random text.
    java.util.List<String> texts =
        new java.util.ArrayList<>(
            java.util.List.of(
                "",
                "-",
                "0",
                "-0",
                "00",
                "01",
                "1",
                "-1",
                "9",
                "10",
                "1a",
                "a1",
                " 1",
                "+1",
                "9223372036854775807",
                "9223372036854775808",
                "-9223372036854775808",
                "99999999999999999999",
                "1000000000000000000",
                "0x10"));
    SplittableRandom r = new SplittableRandom(7);
    String alphabet = "-0123456789x ";
    for (int i = 0; i < 20_000; i++) {
      StringBuilder b = new StringBuilder();
      for (int k = r.nextInt(22); k > 0; k--) {
        b.append(alphabet.charAt(r.nextInt(alphabet.length())));
      }
      texts.add(b.toString());
    }
    for (String t : texts) {
      boolean integer = UploadCodec.INTEGER.matcher(t).matches();
      assertThat(UploadCodec.isInteger(t)).isEqualTo(integer);
      if (integer) {
        boolean count;
        try {
          count = Long.parseLong(t) >= 0 && !t.startsWith("-");
        } catch (NumberFormatException e) {
          count = false;
        }
        assertThat(UploadCodec.isCount(t)).isEqualTo(count);
      }
    }
  }

  static String json() {
    return new String(UploadCodec.json(PART), StandardCharsets.UTF_8);
  }

  static UploadException refused(String json) {
    return assertThrows(
        UploadException.class,
        () -> UploadCodec.read(UploadCodec.gzip(json.getBytes(StandardCharsets.UTF_8)), 1 << 20));
  }

  @Test
  void aPartReadsBackAsWritten() throws Exception {
    Upload u = UploadCodec.read(UploadCodec.gzip(UploadCodec.json(PART)), 1 << 20);
    assertThat(u.uploadId()).isEqualTo(PART.uploadId());
    assertThat(u.device()).isEqualTo("dev1");
    assertThat(u.profiles().get(0).table()).isEqualTo(PART.profiles().get(0).table());
    assertThat(u.phases()).hasSize(4);
    assertThat(u.phases().get(2).signature()).isEqualTo(PART.phases().get(2).signature());
    assertThat(u.phases().get(3).weights()).isEqualTo(PART.phases().get(3).weights());
    assertThat(u.trace()).isEqualTo(PART.trace());
    assertThat(u.figures()).isEqualTo(PART.figures());
  }

  @Test
  void eachDamageIsRefusedWithItsStatusAndReason() {
    String j = json();
    assertThat(refused(j.replace("\"version\":1", "\"version\":7")).status()).isEqualTo(415);
    assertThat(refused(j.replace("\"version\":1,", "")).getMessage())
        .contains("`version` is missing");
    assertThat(refused(j.substring(0, j.length() - 3)).getMessage())
        .startsWith("malformed JSON at line 1, column");
    assertThat(refused(j.replace("\"dev1\"", "\"dev 1\"")).getMessage())
        .contains("`device` is malformed");
    assertThat(refused(j.replace("\"sha256\":\"abab", "\"sha256\":\"zzab")).getMessage())
        .contains("`sha256` is malformed");
    assertThat(refused(j.replaceFirst("\"trace\":\\[0", "\"trace\":[9")).getMessage())
        .contains("trace: entry 0 (9) is not a phase of this part");
    assertThat(refused(j.replaceFirst("\"weight\":\"count\"", "\"weight\":\"nope\"")).getMessage())
        .contains("must be columns of");
    assertThat(refused("[1, 2]").getMessage()).isEqualTo("an upload is a JSON object");
    UploadException big =
        assertThrows(
            UploadException.class, () -> UploadCodec.read(UploadCodec.gzip(new byte[4096]), 1000));
    assertThat(big.status()).isEqualTo(413);
    byte[] gz = UploadCodec.gzip(UploadCodec.json(PART));
    UploadException cut =
        assertThrows(
            UploadException.class,
            () -> UploadCodec.read(java.util.Arrays.copyOf(gz, gz.length - 10), 1 << 20));
    assertThat(cut.status()).isEqualTo(400);
    assertThat(cut.getMessage()).contains("truncated");
    UploadException plain =
        assertThrows(
            UploadException.class, () -> UploadCodec.read(UploadCodec.json(PART), 1 << 20));
    assertThat(plain.getMessage()).contains("not gzip-compressed");
  }
}
