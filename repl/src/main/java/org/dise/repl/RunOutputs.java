package org.dise.repl;

import java.nio.file.Path;
import org.dise.repl.common.ProfileReport;
import org.dise.runtime.dise.ProfilingEngine;
import org.dise.runtime.elf.SymbolTable;

/**
 * What {@code acf run --out DIR} writes, for the REPL's {@code :out}: one writer ({@link
 * ProfileReport#write}) for both, so a run directory reads the same in {@code acf report} and
 * {@code acf compare} whichever wrote it.
 */
public final class RunOutputs {
  private RunOutputs() {}

  /**
   * Writes every sink's files and summary.json into {@code dir}; {@code exitStatus} is the guest's,
   * or -1 while it has not exited.
   *
   * @throws UserError naming the folder and why it cannot be written
   */
  public static void write(ProfilingEngine engine, SymbolTable symbols, Path dir, int exitStatus) {
    ProfileReport.write(engine, symbols, dir, exitStatus);
  }
}
