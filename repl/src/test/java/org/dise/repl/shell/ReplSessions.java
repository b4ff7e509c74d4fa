package org.dise.repl.shell;

import static com.google.common.truth.Truth.assertThat;

import java.nio.file.Path;

/**
 * The sessions the shell's tests start from, each with the empty environment (the same on every
 * host, so that guest instruction counts do not depend on the machine): fresh, with an ACF file and
 * a program loaded, or stopped at a function of a program.
 */
final class ReplSessions {
  static final Path ROOT = ReplTranscriptTest.ROOT;

  private ReplSessions() {}

  /** A new session with the environment cleared. */
  static ReplSession fresh() {
    ReplSession s = new ReplSession(ROOT);
    s.execute(":env clear");
    return s;
  }

  /** A fresh session that has loaded {@code acf} and {@code program} (not started). */
  static ReplSession loaded(String acf, String program) {
    ReplSession s = fresh();
    assertThat(s.execute(":load " + acf)).doesNotContain("error");
    assertThat(s.execute(":program " + program)).doesNotContain("error");
    return s;
  }

  /** A fresh session stopped at {@code function} of {@code program}. */
  static ReplSession stoppedAt(String program, String function) {
    ReplSession s = fresh();
    s.execute(":program " + program);
    assertThat(s.execute(":until " + function)).startsWith("reached " + function + " after ");
    return s;
  }
}
