package org.dise.repl;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The command line of a worker ({@code acf experiment ... --run K}, {@code acf sweep ... --run K}):
 * this JVM's java, its options and class path, {@code Main} and the arguments, every path absolute,
 * so that a worker started on this machine or on a cluster node that shares the filesystem runs
 * exactly what this process would.
 */
final class Workers {
  private Workers() {}

  static List<String> command(List<String> args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(
        ProcessHandle.current()
            .info()
            .command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (!a.startsWith("-agentlib:jdwp")) { // a debugger's port is this process's alone
        cmd.add(a);
      }
    }
    cmd.add("-cp");
    cmd.add(
        List.of(System.getProperty("java.class.path").split(java.io.File.pathSeparator)).stream()
            .map(p -> Path.of(p).toAbsolutePath().toString())
            .collect(Collectors.joining(java.io.File.pathSeparator)));
    cmd.add(Main.class.getName());
    cmd.addAll(args);
    return cmd;
  }
}
