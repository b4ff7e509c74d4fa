package org.dise.runtime.cpu;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * The emulator's {@code -Dacf.*} knobs are checked before a run (spec/emulator.md, "System
 * properties"): a bad or out-of-range value is an error naming the property and what it takes, an
 * unknown {@code acf.} name a warning, and good values pass through as their types.
 */
class EmulatorPropertiesTest {
  private static Properties props(String... pairs) {
    Properties p = new Properties();
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return p;
  }

  @Test
  void nothingSetIsNoProblemAndGivesTheDefaults() {
    EmulatorProperties.Problems problems = EmulatorProperties.check(props("user.dir", "/x"));
    assertThat(problems.errors()).isEmpty();
    assertThat(problems.warnings()).isEmpty();
    assertThat(EmulatorProperties.UNIT_REGS.value(props())).isEqualTo("memory");
    assertThat(EmulatorProperties.UNIT_BYTES.value(props())).isEqualTo(4000);
    assertThat(EmulatorProperties.EXIT_STATS.value(props())).isFalse();
    assertThat(EmulatorProperties.COMPARE_JUMP.value(props())).isTrue();
  }

  @Test
  void goodValuesAreReadAsTheirTypes() {
    Properties p =
        props(
            "acf.unitRegs", "locals",
            "acf.unitBytes", " 8000 ",
            "acf.callDepth", "48",
            "acf.exitStats", "true",
            "acf.dumpUnits", "/tmp/units",
            "acf.updateGolden", "true");
    assertThat(EmulatorProperties.check(p).errors()).isEmpty();
    assertThat(EmulatorProperties.check(p).warnings()).isEmpty();
    assertThat(EmulatorProperties.UNIT_REGS.value(p)).isEqualTo("locals");
    assertThat(EmulatorProperties.UNIT_BYTES.value(p)).isEqualTo(8000);
    assertThat(EmulatorProperties.CALL_DEPTH.value(p)).isEqualTo(48);
    assertThat(EmulatorProperties.EXIT_STATS.value(p)).isTrue();
    assertThat(EmulatorProperties.DUMP_UNITS.value(p)).isEqualTo("/tmp/units");
    assertThat(EmulatorProperties.DUMP_UNITS.value(props())).isEmpty();
  }

  @Test
  void badValuesAreErrorsNamingThePropertyAndWhatItTakes() {
    EmulatorProperties.Problems problems =
        EmulatorProperties.check(
            props(
                "acf.unitRegs", "foo",
                "acf.unitBytes", "99999",
                "acf.unitRegsHeld", "four",
                "acf.exitStats", "yes",
                "acf.dumpUnits", " "));
    assertThat(problems.errors())
        .containsExactly(
            "-Dacf.unitRegs=foo: expected memory or locals (default memory)",
            "-Dacf.unitBytes=99999: expected a whole number from 500 to 8000 (default 4000)",
            "-Dacf.unitRegsHeld=four: expected a whole number from 0 to 31 (default 4)",
            "-Dacf.exitStats=yes: expected true or false (default false)",
            "-Dacf.dumpUnits=: expected a directory (default none)");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> EmulatorProperties.FOOTPRINT_STEP.value(props("acf.footprintStep", "-1")));
    assertThat(e).hasMessageThat().startsWith("-Dacf.footprintStep=-1: expected a whole number");
  }

  @Test
  void anUnknownNameIsAWarningListingTheKnownOnes() {
    EmulatorProperties.Problems problems = EmulatorProperties.check(props("acf.unitReg", "locals"));
    assertThat(problems.errors()).isEmpty();
    assertThat(problems.warnings()).hasSize(1);
    assertThat(problems.warnings().get(0))
        .startsWith("-Dacf.unitReg is not a property acf reads (it has: acf.unitRegs, ");
  }
}
