package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dise.repl.ConfigCommandTest.Result;
import org.dise.runtime.dise.Catalogue;
import org.dise.runtime.sink.ComponentSpec;
import org.dise.runtime.sink.ParamSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every parameter of every catalogue component, given one bad value: {@code acf check} and {@code
 * acf run} refuse it with the same message at the same line and column (the value's), with status
 * 1; and the runtime refuses the same value in a configuration's binding, naming the parameter.
 */
class CatalogueRefusalTest {
  static final String PROGRAM =
      ConfigCommandTest.ROOT.resolve("examples/programs/bin/hello").toString();

  /** A value the parameter refuses, or null when every value of its type is accepted. */
  static String bad(ParamSpec p) {
    return switch (p.type()) {
      case INT ->
          p.powerOfTwo()
              ? "3"
              : p.min() > Long.MIN_VALUE
                  ? Long.toString(p.min() - 1)
                  : p.max() < Long.MAX_VALUE ? Long.toString(p.max() + 1) : null;
      case DECIMAL -> Long.toString(p.min() - 1);
      case BOOL -> "2";
      case CHOICE -> "banana";
      case NAME -> null;
    };
  }

  @Test
  void checkAndRunRefuseEveryBadParameterAlikeAtItsLineAndColumn(@TempDir Path dir)
      throws Exception {
    List<String> tried = new ArrayList<>();
    for (ComponentSpec c : Catalogue.all()) {
      for (ParamSpec p : c.params()) {
        String value = bad(p);
        if (value == null) {
          continue;
        }
        String prefix =
            "// "
                + c.name()
                + "."
                + p.name()
                + "\n"
                + (c.isSink() ? "sink s" : "trigger t")
                + " = "
                + c.name()
                + "("
                + p.name()
                + " = ";
        Path acf = dir.resolve(c.name() + "_" + p.name() + ".acf");
        Files.writeString(acf, prefix + value + ");\n", StandardCharsets.UTF_8);
        int column = prefix.length() - prefix.lastIndexOf('\n');
        String where = acf + ":2:" + column + ": error: ";

        Result check = ConfigCommandTest.acf("check", acf.toString());
        Result run = ConfigCommandTest.acf("run", "--acf", acf.toString(), PROGRAM);
        String what = c.name() + "(" + p.name() + " = " + value + ")";
        assertWithMessage("acf check, " + what).that(check.status()).isEqualTo(1);
        assertWithMessage("acf run, " + what).that(run.status()).isEqualTo(1);
        String refusal = firstLine(check.stderr(), where);
        assertWithMessage("acf check, " + what + ":\n" + check.stderr()).that(refusal).isNotNull();
        assertWithMessage("acf run, " + what + ":\n" + run.stderr())
            .that(firstLine(run.stderr(), where))
            .isEqualTo(refusal);
        assertThat(run.stdout()).isEmpty(); // the program never ran

        // A configuration carrying the same value is refused by the runtime, naming it.
        if (c.isSink()) {
          String message =
              org.junit.jupiter.api.Assertions.assertThrows(
                      IllegalArgumentException.class,
                      () ->
                          Catalogue.require(
                              "sink", "s", c.name(), java.util.Map.of(p.name(), value)))
                  .getMessage();
          assertWithMessage(what).that(message).contains(p.name());
        }
        tried.add(what);
      }
    }
    assertThat(tried.size()).isGreaterThan(60);
  }

  private static String firstLine(String stderr, String prefix) {
    for (String line : stderr.split("\n")) {
      if (line.contains(prefix)) {
        return line.substring(line.indexOf(prefix));
      }
    }
    return null;
  }
}
