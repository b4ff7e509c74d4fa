package org.dise.runtime.dise.config;

import java.util.List;
import org.dise.runtime.dise.ProductionSet;

/**
 * A deployable configuration (DESIGN.md, "What a user does" step 4): a lowered production set, a
 * label saying what it was built from, and its provenance (the compiler's version and each source
 * file's SHA-256, so a result can be traced to the text that produced it). The byte layout is
 * {@code spec/config-format.md}.
 */
public record DeployableConfig(String source, ProductionSet productions, Provenance provenance) {
  /** A source file the set was compiled from, and the SHA-256 of its bytes (lower-case hex). */
  public record SourceHash(String path, String sha256) {}

  /** Who built the set from what; {@link #UNKNOWN} for configurations older than version 4. */
  public record Provenance(String compilerVersion, List<SourceHash> sources) {
    public static final Provenance UNKNOWN = new Provenance("", List.of());

    public Provenance {
      sources = List.copyOf(sources);
    }
  }

  public DeployableConfig {
    provenance = provenance == null ? Provenance.UNKNOWN : provenance;
  }

  /** A configuration without provenance (tests, the REPL's session set). */
  public DeployableConfig(String source, ProductionSet productions) {
    this(source, productions, Provenance.UNKNOWN);
  }
}
