package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.dise.repl.common.SummaryJson;
import org.junit.jupiter.api.Test;

/**
 * summary.json is written without Jackson ({@link SummaryJson}), byte for byte as Jackson wrote it.
 */
class SummaryJsonTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @Test
  void theValuesOfASummaryAreWrittenAsJacksonWritesThem() throws Exception {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("command", List.of("acf", "run", "--acf", "a b.acf", "prog"));
    m.put("tool_version", "acf 0.2.0 (commit 5594b75bdb6c)");
    m.put("config", null);
    m.put("seed", 0x5eedL);
    m.put("max_insns", -1L);
    m.put("index", 3);
    m.put("zero", true);
    m.put("overflow", false);
    m.put("ratio", 1.0);
    m.put("small", 1e-7);
    m.put("big", 1.5e300);
    m.put("negative", -0.0);
    m.put("empty", List.of());
    m.put("nothing", new LinkedHashMap<>());
    m.put("registers", Arrays.asList(0L, -1L, Long.MIN_VALUE, Long.MAX_VALUE, null));
    Map<String, Object> nested = new LinkedHashMap<>();
    nested.put("path", "/tmp/\u00e9t\u00e9/\"quoted\"\\back");
    nested.put("sha256", "ab".repeat(32));
    m.put("acfs", List.of(nested, nested));
    m.put("env", List.of("A=\t\n\r\b\f\u0000\u001f\u007f", "LANG=C.UTF-8", "X=\ud800\udc00\udc80"));
    assertThat(SummaryJson.write(m)).isEqualTo(MAPPER.writeValueAsString(m));
  }

  @Test
  void randomStringsAreEscapedAsJacksonEscapesThem() throws Exception {
    Random r = new Random(14);
    for (int n = 0; n < 2000; n++) {
      StringBuilder s = new StringBuilder();
      for (int i = r.nextInt(12); i > 0; i--) {
        int kind = r.nextInt(4);
        s.append(
            (char)
                switch (kind) {
                  case 0 -> r.nextInt(0x40);
                  case 1 -> 0x20 + r.nextInt(0x60);
                  case 2 -> r.nextInt(0x800);
                  default -> r.nextInt(0x10000);
                });
      }
      List<Object> value = new ArrayList<>(List.of(s.toString()));
      value.add(Map.of(s.toString(), r.nextLong()));
      value.add(r.nextDouble() * Math.pow(10, r.nextInt(40) - 20));
      assertThat(SummaryJson.write(value)).isEqualTo(MAPPER.writeValueAsString(value));
    }
  }

  @Test
  void aValueWithNoJsonFormIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> SummaryJson.write(List.of(new Object())));
    assertThrows(IllegalArgumentException.class, () -> SummaryJson.write(Map.of(1, 2)));
  }
}
