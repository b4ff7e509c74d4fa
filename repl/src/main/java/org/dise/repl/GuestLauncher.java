package org.dise.repl;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.dise.runtime.Machine;
import org.dise.runtime.elf.ElfException;

/** Loads a guest program, turning every loading problem into a one-line user error. */
final class GuestLauncher {
  private GuestLauncher() {}

  static Machine load(Path program, List<String> args, Machine.Options options) {
    if (!Files.exists(program)) {
      throw new UserError(program + ": no such file");
    }
    if (Files.isDirectory(program)) {
      throw new UserError(program + ": is a directory, not a program");
    }
    try {
      return Machine.load(program, args, options);
    } catch (ElfException e) {
      throw new UserError(program + ": cannot run: " + e.getMessage());
    } catch (NoSuchFileException e) {
      throw new UserError(program + ": no such file");
    } catch (IOException e) {
      throw new UserError(program + ": cannot read: " + UserError.why(e));
    }
  }
}
