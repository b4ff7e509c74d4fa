package org.dise.runtime.session;

import java.nio.file.Path;
import java.util.List;

/**
 * What one profiling session is asked to do, whichever front end asks: the program and its
 * arguments, where the productions come from (ACF files or a deployable configuration, or none for
 * a plain run), where the profiles go, how far to run and whether productions follow an exec. The
 * one validation of how these go together is here, in the constructor; each front end only turns
 * its own syntax into this record.
 *
 * @param program the RISC-V program, argv[0] as given
 * @param args the guest's arguments (the bytes typed)
 * @param acfs ACF files composed in order (empty: none)
 * @param config a deployable configuration (null: none); excludes {@code acfs}
 * @param out the folder for profiles (null: none); needs productions
 * @param maxInsns instructions to run at most, -1 for no limit; never 0
 * @param followExec whether a guest's exec keeps its productions
 */
public record SessionOptions(
    Path program,
    List<String> args,
    List<Path> acfs,
    Path config,
    Path out,
    long maxInsns,
    boolean followExec) {
  /**
   * @throws SessionError (usage) when the options do not go together
   */
  public SessionOptions {
    args = List.copyOf(args);
    acfs = List.copyOf(acfs);
    if (maxInsns == 0) {
      throw new SessionError(
          "--max-insns must be at least 1 (leave it out for no limit)", SessionError.USAGE);
    }
    if (config != null && !acfs.isEmpty()) {
      throw new SessionError("--config and --acf exclude each other", SessionError.USAGE);
    }
    if (out != null && acfs.isEmpty() && config == null) {
      throw new SessionError("--out needs --acf or --config", SessionError.USAGE);
    }
  }

  /** A plain run of {@code program}: no productions, no limit. */
  public static SessionOptions plain(Path program, List<String> args) {
    return new SessionOptions(program, args, List.of(), null, null, -1, true);
  }

  /** Whether the run has productions (an ACF or a configuration). */
  public boolean profiled() {
    return config != null || !acfs.isEmpty();
  }

  /** The file the productions are named after in messages (null for a plain run). */
  public Path origin() {
    return config != null ? config : acfs.isEmpty() ? null : acfs.get(0);
  }
}
