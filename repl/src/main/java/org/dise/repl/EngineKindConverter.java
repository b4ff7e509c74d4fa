package org.dise.repl;

import picocli.CommandLine;

/**
 * {@code --engine KIND}: the engines there are, and a usage error that says why {@code generated}
 * is gone (picocli's own enum message would only list the kinds).
 */
class EngineKindConverter implements CommandLine.ITypeConverter<String> {
  @Override
  public String convert(String value) {
    try {
      return org.dise.runtime.session.Engines.named(value);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.TypeConversionException(e.getMessage());
    }
  }
}
