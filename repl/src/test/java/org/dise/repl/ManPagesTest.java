package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 32, conventions: no man pages. The distribution's build writes these. */
class ManPagesTest {
  @Test
  void everyCommandGetsAPageAndTheCompletionsAreWritten(@TempDir Path dir) throws Exception {
    ManPages.main(new String[] {dir.toString()});
    for (String c : Cli.commandLine().getSubcommands().keySet()) {
      if (!c.equals("help")) {
        assertThat(Files.exists(dir.resolve("man/man1/acf-" + c + ".1"))).isTrue();
      }
    }
    String run = Files.readString(dir.resolve("man/man1/acf-run.1"));
    assertThat(run).startsWith(".TH ACF-RUN 1 ");
    assertThat(run).contains(".SH SYNOPSIS");
    assertThat(run).contains(".B --max-insns \\fIN\\fR");
    assertThat(run).contains(".SH NOTES AND EXAMPLES");
    String acf = Files.readString(dir.resolve("man/man1/acf.1"));
    assertThat(acf).contains(".B compare\n");
    assertThat(Files.readString(dir.resolve("completions/acf.bash"))).contains("_complete_acf");
    assertThat(Files.readString(dir.resolve("completions/_acf"))).contains("bashcompinit");
  }
}
