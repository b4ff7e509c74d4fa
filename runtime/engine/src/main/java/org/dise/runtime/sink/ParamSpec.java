package org.dise.runtime.sink;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One parameter of a sink or trigger component, described once for the compiler's checks, the
 * runtime's, REPL completion and the component table of spec/acf-language.md: its name, type, range
 * (or choices), default and what it means.
 *
 * @param name the parameter as written ({@code epsilon_ppm})
 * @param type what a value is
 * @param min the least whole number accepted ({@link Type#INT})
 * @param max the greatest whole number accepted ({@link Type#INT})
 * @param powerOfTwo whether a number must be a power of two (RAP's branching factor)
 * @param choices the names accepted ({@link Type#CHOICE})
 * @param dflt the default as text, or "" when the default depends on other parameters
 * @param doc one line saying what it is
 */
public record ParamSpec(
    String name,
    Type type,
    long min,
    long max,
    boolean powerOfTwo,
    List<String> choices,
    String dflt,
    String doc) {
  /** What a parameter's value is. */
  public enum Type {
    /** A whole number. */
    INT,
    /** A decimal number (the phase tracker's threshold percentage). */
    DECIMAL,
    /** {@code true} or {@code false}. */
    BOOL,
    /** One of {@link #choices()}, written as a bare name. */
    CHOICE,
    /** A name of the program (a sink's key). */
    NAME
  }

  public ParamSpec {
    Objects.requireNonNull(name);
    choices = List.copyOf(choices);
    if (type == Type.CHOICE && choices.isEmpty()) {
      throw new IllegalArgumentException("parameter " + name + " has no choices");
    }
    if (min > max) {
      throw new IllegalArgumentException("parameter " + name + ": min " + min + " > max " + max);
    }
  }

  /** A whole number in {@code [min, max]}. */
  /** Every sink's {@code cost}: handler cycles charged per call, {@code dflt} by default. */
  public static ParamSpec cost(long dflt) {
    return atLeast("cost", 0, Long.toString(dflt), "handler cycles charged per call");
  }

  public static ParamSpec integer(String name, long min, long max, String dflt, String doc) {
    return new ParamSpec(name, Type.INT, min, max, false, List.of(), dflt, doc);
  }

  /** A whole number of at least {@code min}. */
  public static ParamSpec atLeast(String name, long min, String dflt, String doc) {
    return integer(name, min, Long.MAX_VALUE, dflt, doc);
  }

  /** A power of two in {@code [min, max]}. */
  public static ParamSpec powerOfTwo(String name, long min, long max, String dflt, String doc) {
    return new ParamSpec(name, Type.INT, min, max, true, List.of(), dflt, doc);
  }

  public static ParamSpec decimal(String name, long min, long max, String dflt, String doc) {
    return new ParamSpec(name, Type.DECIMAL, min, max, false, List.of(), dflt, doc);
  }

  public static ParamSpec bool(String name, String dflt, String doc) {
    return new ParamSpec(name, Type.BOOL, 0, 1, false, List.of(), dflt, doc);
  }

  public static ParamSpec choice(String name, List<String> choices, String dflt, String doc) {
    return new ParamSpec(name, Type.CHOICE, 0, 0, false, choices, dflt, doc);
  }

  /**
   * Why {@code value} (as a configuration carries it: text) is not acceptable, or empty when it is:
   * the parameter's name and what it takes ({@code branching must be a power of two 2..256, got
   * 3}), for the runtime to show for a configuration.
   */
  public Optional<String> problem(String value) {
    return requirement(value).map(r -> name + " " + r);
  }

  /**
   * The same without the name ({@code must be at least 1, got 0}), for the compiler's message at
   * the value's line and column.
   */
  public Optional<String> requirement(String value) {
    switch (type) {
      case INT -> {
        Long v = SinkParams.parsed(value, Long::valueOf);
        return v == null
            ? Optional.of("takes a whole number, not `" + value + "`")
            : numberRequirement(v);
      }
      case DECIMAL -> {
        Double v = SinkParams.parsed(value, Double::valueOf);
        if (v == null) {
          return Optional.of("takes a number, not `" + value + "`");
        }
        return v >= min && v <= max
            ? Optional.empty()
            : Optional.of("must be " + range() + ", got " + value);
      }
      case BOOL -> {
        return value.equals("true") || value.equals("false")
            ? Optional.empty()
            : Optional.of("takes true or false, not `" + value + "`");
      }
      case CHOICE -> {
        return choices.contains(value)
            ? Optional.empty()
            : Optional.of("must be " + alternatives() + ", not `" + value + "`");
      }
      default -> {
        return value.isEmpty() ? Optional.of("takes a name") : Optional.empty();
      }
    }
  }

  /** Why the whole number {@code v} is out of range, or empty. */
  public Optional<String> numberRequirement(long v) {
    if (v < min || v > max) {
      return Optional.of("must be " + range() + ", got " + v);
    }
    if (powerOfTwo && Long.bitCount(v) != 1) {
      return Optional.of("must be a power of two " + range() + ", got " + v);
    }
    return Optional.empty();
  }

  /** The accepted values in words: {@code 1..64}, {@code at least 1}, {@code any number}. */
  public String range() {
    if (type == Type.CHOICE) {
      return alternatives();
    }
    if (type == Type.BOOL) {
      return "true or false";
    }
    if (min == Long.MIN_VALUE && max == Long.MAX_VALUE) {
      return "any number";
    }
    if (max == Long.MAX_VALUE) {
      return "at least " + min;
    }
    if (min == Long.MIN_VALUE) {
      return "at most " + max;
    }
    if (max == Integer.MAX_VALUE) {
      return min + "..2^31-1"; // a count the runtime keeps in an int
    }
    return min + ".." + max;
  }

  private String alternatives() {
    if (choices.size() == 1) {
      return choices.get(0);
    }
    return String.join(", ", choices.subList(0, choices.size() - 1))
        + " or "
        + choices.get(choices.size() - 1);
  }
}
