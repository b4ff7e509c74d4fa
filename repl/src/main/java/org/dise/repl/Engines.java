package org.dise.repl;

import org.dise.compiler.gen.EngineCompiler;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.ProfilingEngine;

/**
 * The generated engine, kept apart so that the interpreted and {@code --config} paths of {@code acf
 * run} load no compiler class.
 */
final class Engines {
  private Engines() {}

  static ProfilingEngine generated(ProductionSet set) {
    try {
      return EngineCompiler.load(set);
    } catch (EngineCompiler.CompileException e) {
      throw new UserError("generated engine: " + e.getMessage());
    }
  }
}
