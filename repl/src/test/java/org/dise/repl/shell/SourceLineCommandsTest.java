package org.dise.repl.shell;

import static com.google.common.truth.Truth.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The REPL names source lines (issue 32, finding 4) for a program built with {@code -g}: {@code
 * :bt} gives each frame's {@code file:line} (a caller's is its call's), {@code :disasm} puts the
 * line above its instructions as {@code objdump -l} does; a program without {@code -g} shows none.
 */
class SourceLineCommandsTest {
  @Test
  void btAndDisasmShowFileAndLine() {
    ReplSession s = ReplSessions.stoppedAt("integration-tests/src/test/c/bin/lines", "mix");
    String bt = s.execute(":bt");
    // mix's first line is lines_util.c:2; main calls it at lines.c:15.
    assertThat(bt).containsMatch("#0 .* mix \\(lines_util\\.c:2\\)");
    assertThat(bt).containsMatch("#1 .* main\\+0x[0-9a-f]+ \\(lines\\.c:15\\)");
    String dis = s.execute(":disasm main 12");
    assertThat(dis).containsMatch("(?m)^lines\\.c:10$");
    assertThat(dis).containsMatch("(?m)^lines\\.c:13$");
  }

  @Test
  void programWithoutDebugInfoShowsNoLines() {
    ReplSession s = ReplSessions.stoppedAt("examples/programs/bin/hello", "main");
    assertThat(s.execute(":bt")).doesNotContainMatch("\\(\\S+:\\d+\\)");
    assertThat(s.execute(":disasm main 8")).doesNotContainMatch("(?m)^\\S+\\.c:\\d+$");
  }
}
