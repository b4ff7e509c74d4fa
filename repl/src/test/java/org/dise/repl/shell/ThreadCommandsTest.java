package org.dise.repl.shell;

import static com.google.common.truth.Truth.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The REPL with guest threads (issue 28): {@code :threads} lists them, {@code :bt} shows the call
 * stack of the thread on the hart (each thread has its own shadow stack), and {@code :thread N}
 * shows another thread's stack and registers without changing the run.
 */
class ThreadCommandsTest {
  @Test
  void threadsAreListedAndBtFollowsTheSelectedThread() {
    // The first worker of the locked counter: thread 1001, created by main (1000).
    ReplSession s =
        ReplSessions.stoppedAt("runtime/emulator/src/test/resources/isa/threads.elf", "add_locked");
    String threads = s.execute(":threads");
    assertThat(threads).containsMatch("(?m)^  1000 +\\S");
    assertThat(threads).containsMatch("(?m)^\\* 1001 +running .* add_locked");
    String bt = s.execute(":bt");
    assertThat(bt).containsMatch("#0 .* add_locked");
    assertThat(bt).contains("start_thread");
    assertThat(bt).doesNotContain(" main");
    // Main's own stack: it is inside pthread_create or later, called from main.
    assertThat(s.execute(":thread 1000")).startsWith("thread 1000 (");
    String mainBt = s.execute(":bt");
    assertThat(mainBt).contains(" main+");
    assertThat(mainBt).doesNotContain("add_locked");
    assertThat(s.execute(":regs")).startsWith("thread 1000 (");
    assertThat(s.execute(":threads")).containsMatch("(?m)^\\* 1000 ");
    assertThat(s.execute(":thread 77")).contains("no live thread 77");
    // Running again brings :bt back to the thread on the hart.
    s.execute(":step");
    assertThat(s.execute(":bt")).doesNotContain(" main+");
  }
}
