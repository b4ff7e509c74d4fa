package org.dise.runtime.elf;

import java.io.IOException;
import java.util.List;
import org.dise.testsupport.ExternalTool;
import org.junit.jupiter.api.Assumptions;

/** Runs a binutils tool (readelf, objdump) for the tests that check our DWARF readers with it. */
final class Binutils {
  private Binutils() {}

  /** Skips the calling test, saying why under its name, unless {@code tool} runs. */
  static void assume(String test, String tool) {
    String why = ExternalTool.missing(tool, "--version");
    if (why != null) {
      System.out.println(test + " skipped: " + why);
    }
    Assumptions.assumeTrue(why == null, why);
  }

  /** The lines a command printed (stdout and stderr), once it has ended with status 0. */
  static List<String> lines(String... command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    List<String> lines = new String(p.getInputStream().readAllBytes()).lines().toList();
    if (p.waitFor() != 0) {
      throw new IOException(String.join(" ", command) + " failed:\n" + String.join("\n", lines));
    }
    return lines;
  }
}
