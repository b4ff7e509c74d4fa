package org.dise.repl;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The acf command in a JVM of its own, on this test run's class path: for tests that need its own
 * process (its real standard streams, environment, start-up or class loading).
 */
public final class AcfJvm {
  private AcfJvm() {}

  /** The java launcher of the JVM running the tests. */
  public static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** {@code java JVM_OPTIONS... -cp CLASS_PATH org.dise.repl.Main ARGS...}, to add to. */
  public static List<String> command(List<String> jvmOptions, String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(java());
    cmd.addAll(jvmOptions);
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
    cmd.addAll(List.of(args));
    return cmd;
  }
}
