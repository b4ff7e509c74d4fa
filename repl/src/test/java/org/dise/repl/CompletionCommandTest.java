package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;
import static org.dise.repl.ConfigCommandTest.acf;

import org.junit.jupiter.api.Test;

/** Issue 32, conventions: {@code acf generate-completion} was an unknown command. */
class CompletionCommandTest {
  @Test
  void bashAndZshGetAScriptThatKnowsTheCommandsAndOptions() {
    for (String shell : new String[] {"bash", "zsh"}) {
      ConfigCommandTest.Result r = acf("completion", shell);
      assertThat(r.status()).isEqualTo(0);
      assertThat(r.stdout()).contains("complete -F _complete_acf");
      assertThat(r.stdout()).contains("compare");
      assertThat(r.stdout()).contains("--max-insns");
      assertThat(r.stdout()).contains("bashcompinit"); // zsh loads bash's completion itself
    }
    assertThat(acf("completion", "fish").status()).isEqualTo(2);
  }
}
