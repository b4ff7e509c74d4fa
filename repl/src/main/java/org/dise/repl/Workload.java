package org.dise.repl;

import java.nio.file.Path;
import java.util.List;

/** One benchmark workload: a name for the table, a RISC-V program and its arguments. */
record Workload(String name, Path program, List<String> args) {
  Workload {
    args = List.copyOf(args);
  }

  /** A program named after its file, with {@code args}. */
  static Workload of(Path program, List<String> args) {
    return new Workload(program.getFileName().toString(), program, args);
  }
}
