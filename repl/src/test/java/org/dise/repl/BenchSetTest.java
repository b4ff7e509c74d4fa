package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import org.dise.repl.common.UserError;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The workload sets of {@code acf bench --cold --set}: what they hold, and bad sets refused. */
class BenchSetTest {
  private static final Path ROOT = RepositoryRoot.path();

  @Test
  void longSetHoldsInterpreterPointerFloatingPointAndRealPrograms() throws Exception {
    var names = BenchSet.read(ROOT, "long").stream().map(BenchSet.Entry::name).toList();
    assertThat(names).containsAtLeast("interp", "mcf", "fpmath", "sqlite", "jpeg");
    assertThat(BenchSet.names(ROOT)).containsAtLeast("long", "short");
    var sqlite =
        BenchSet.read(ROOT, "long").stream().filter(e -> e.name().equals("sqlite")).findFirst();
    assertThat(sqlite.orElseThrow().program()).isEqualTo("build:sqlite/sqlbench");
    assertThat(Files.isExecutable(ROOT.resolve("scripts/real-programs/sqlite/build.sh"))).isTrue();
  }

  @Test
  void unknownSetAndMissingProgramAreUsageErrors(@TempDir Path root) throws Exception {
    UserError e = assertThrows(UserError.class, () -> BenchSet.read(ROOT, "nosuch"));
    assertThat(e).hasMessageThat().contains("known: ");
    Files.createDirectories(BenchSet.setsDir(root));
    Files.writeString(BenchSet.setsDir(root).resolve("x.txt"), "# c\n\nw examples/nothing 1\n");
    e = assertThrows(UserError.class, () -> BenchSet.read(root, "x"));
    assertThat(e).hasMessageThat().contains("x.txt:3: ");
    assertThat(e).hasMessageThat().contains("no such program");
  }
}
