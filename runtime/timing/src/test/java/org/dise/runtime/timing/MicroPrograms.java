package org.dise.runtime.timing;

import java.io.PrintStream;
import java.util.List;
import org.dise.runtime.Machine;
import org.dise.testsupport.RepositoryRoot;

/** The validation microbenchmarks' programs (src/test/micro), loaded with notices silenced. */
final class MicroPrograms {
  private MicroPrograms() {}

  static Machine load(String program, String... args) throws Exception {
    return Machine.load(
        RepositoryRoot.resolve("runtime/timing/src/test/resources/micro/" + program + ".elf"),
        List.of(args),
        Machine.Options.defaults().withNotices(new PrintStream(PrintStream.nullOutputStream())));
  }
}
