package org.dise.repl;

import org.dise.runtime.trigger.Triggers;
import picocli.CommandLine;

/**
 * An instruction count option with the K, M, G suffixes that {@code --interval} takes, so that
 * every count on the command line is written the same way ({@code --max-insns 5M}); never negative.
 */
final class CountConverter implements CommandLine.ITypeConverter<Long> {
  @Override
  public Long convert(String value) {
    long n;
    try {
      n = Triggers.parseCount("the count", value);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.TypeConversionException(
          "'" + value + "' is not a whole number (suffix K, M or G allowed)");
    }
    if (n < 0) {
      // A negative limit would read as "none" (--max-insns -5 ran unbounded): refused instead.
      throw new CommandLine.TypeConversionException(
          "'" + value + "' is negative; a count is 0 or more (suffix K, M or G allowed)");
    }
    return n;
  }
}
