package org.dise.repl.shell;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The commands' help in {@code commands.md}: one entry per registered command, read exactly. */
class CommandHelpTest {
  @Test
  void everyCommandHasHelpAndEveryEntryACommandInHelpsOrder() {
    List<String> registered = new ReplSession(ReplTranscriptTest.ROOT).commandNames();
    List<String> written = CommandHelp.all().keySet().stream().map(n -> ":" + n).toList();
    // A command without an entry cannot register (CommandTable.add), so a session that starts
    // proves the first half; an entry without a command, or out of :help's order, fails here.
    assertThat(written).containsExactlyElementsIn(registered).inOrder();
  }

  @Test
  void aCommandWithoutHelpCannotRegister() {
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> new CommandTable().add("nosuch", a -> {}));
    assertThat(e).hasMessageThat().isEqualTo("command :nosuch has no help in commands.md");
  }

  @Test
  void profilesHelpNamesHowManyEntriesItShows() {
    String help = new ReplSession(ReplTranscriptTest.ROOT).execute(":help profile");
    assertThat(help).contains("(top " + OutputCommands.PROFILE_TOP + " entries)");
  }

  @Test
  void summaryLinesJoinAndExamplesKeepTheirFurtherIndentation() {
    CommandHelp h =
        CommandHelp.parse(
                List.of(
                    "# intro",
                    "",
                    "## :{",
                    "",
                    "start an entry",
                    "",
                    "Start an entry of",
                    "several lines.",
                    "",
                    "    :{",
                    "        T.INSN;",
                    "",
                    "## :step [N]",
                    "brief",
                    "",
                    "summary",
                    "    :step"))
            .get("{");
    assertThat(h)
        .isEqualTo(
            new CommandHelp(
                "",
                "start an entry",
                "Start an entry of several lines.",
                List.of(":{", "    T.INSN;")));
    assertThat(
            CommandHelp.parse(List.of("## :step [N]", "b", "", "s", "    :step"))
                .get("step")
                .synopsis())
        .isEqualTo("[N]");
  }

  @Test
  void aMalformedEntryNamesItsLine() {
    assertThat(parseError("# intro", "## :run", "", "brief", "", "summary"))
        .isEqualTo("commands.md:2: :run: not a brief line, a summary and examples");
    assertThat(parseError("## :run", "b", "", "s", "    :run", "more"))
        .isEqualTo("commands.md:6: :run: text after the examples: more");
    assertThat(parseError("## :run", "b", "", "s", "    :run", "## :run", "b", "", "s", "    :run"))
        .isEqualTo("commands.md:6: :run: a second entry for the command");
  }

  /** The message of the error that parsing {@code lines} gives. */
  private static String parseError(String... lines) {
    return assertThrows(IllegalStateException.class, () -> CommandHelp.parse(List.of(lines)))
        .getMessage();
  }
}
