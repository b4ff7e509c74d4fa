package org.dise.repl;

/**
 * What a command's results are printed as, for the commands whose {@code --format} (or {@code
 * check}'s {@code --diagnostics}) offers text (the default) or json: one document with the same
 * figures.
 */
enum OutputFormat {
  text,
  json
}
