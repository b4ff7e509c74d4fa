package org.dise.codegen;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The build's code generator: {@code Generate OUTDIR NAME...} writes the source file of each named
 * {@link Generator} under {@code OUTDIR} (a source root of the module that runs it). The emulator
 * runs it at generate-sources through exec-maven-plugin.
 */
public final class Generate {
  private Generate() {}

  /** Every generator, by name; a new table's generator is one more entry. */
  static Map<String, Generator> generators() {
    Map<String, Generator> all = new LinkedHashMap<>();
    for (Generator g : List.<Generator>of(new OpcodesGenerator(), new DispatchGenerator())) {
      all.put(g.name(), g);
    }
    return all;
  }

  public static void main(String[] args) throws IOException {
    if (args.length < 2) {
      throw new IllegalArgumentException(
          "usage: Generate OUTDIR NAME... (names: "
              + String.join(", ", generators().keySet())
              + ")");
    }
    Path out = Path.of(args[0]);
    List<Generator> chosen = new ArrayList<>();
    for (int i = 1; i < args.length; i++) {
      Generator g = generators().get(args[i]);
      if (g == null) {
        throw new IllegalArgumentException(
            "no generator named '"
                + args[i]
                + "' (names: "
                + String.join(", ", generators().keySet())
                + ")");
      }
      chosen.add(g);
    }
    for (Generator g : chosen) {
      g.generate().writeTo(out);
    }
  }
}
