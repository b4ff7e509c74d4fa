package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The AOT cache's training process splits its arguments into acf command lines at each "--". */
class TrainingTest {
  @Test
  void argumentsSplitIntoCommandLinesAtEachDoubleDash() {
    List<String[]> lines =
        Training.lines(new String[] {"run", "a", "--", "run", "--acf", "x.acf", "a", "--", "--"});
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0)).asList().containsExactly("run", "a").inOrder();
    assertThat(lines.get(1)).asList().containsExactly("run", "--acf", "x.acf", "a").inOrder();
    assertThat(Training.lines(new String[] {"--version"})).hasSize(1);
    assertThat(Training.lines(new String[0])).isEmpty();
  }
}
