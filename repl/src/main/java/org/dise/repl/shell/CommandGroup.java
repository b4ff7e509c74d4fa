package org.dise.repl.shell;

/**
 * One group of the session's commands ({@link ProgramCommands}, {@link BreakpointCommands}, ...):
 * they act on the session's program and print into the output of the current line, and register
 * their names and actions in a {@link CommandTable} (their help is {@link CommandHelp}'s).
 */
abstract class CommandGroup {
  /** The session's program: the guest, its engine and trigger, breakpoints. */
  final Debuggee program;

  /** What the current line prints. */
  final StringBuilder out;

  CommandGroup(Debuggee program, StringBuilder out) {
    this.program = program;
    this.out = out;
  }

  /** Adds the group's commands to {@code t}, in the order {@code :help} lists them. */
  abstract void register(CommandTable t);
}
