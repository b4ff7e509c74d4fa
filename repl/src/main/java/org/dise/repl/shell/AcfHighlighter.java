package org.dise.repl.shell;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jline.reader.Highlighter;
import org.jline.reader.LineReader;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.AttributedStyle;

/** Colours productions as they are typed: fields, keywords and paper forms, numbers, comments. */
final class AcfHighlighter implements Highlighter {
  private static final Pattern TOKEN =
      Pattern.compile(
          "(?<comment>//.*)"
              + "|(?<field>\\b[Tt]\\.[A-Za-z_]+)"
              + "|(?<keyword>\\b(?:null|call|true|false|import|acf|use|const|register|counter|sink"
              + "|trigger|tag|delete|(?:zero|overflow|inc|dec|set)_\\d+)\\b|=>|->|\u2192|\u21d2)"
              + "|(?<number>\\b(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|\\d[\\d_]*)(?:Ki|Mi|K|M)?\\b)"
              + "|(?<string>\"[^\"]*\"?)");

  @Override
  public AttributedString highlight(LineReader reader, String buffer) {
    AttributedStringBuilder sb = new AttributedStringBuilder();
    if (buffer.stripLeading().startsWith(":")) {
      int end = buffer.indexOf(' ');
      end = end < 0 ? buffer.length() : end;
      sb.style(AttributedStyle.BOLD)
          .append(buffer, 0, end)
          .style(AttributedStyle.DEFAULT)
          .append(buffer.substring(end));
      return sb.toAttributedString();
    }
    Matcher m = TOKEN.matcher(buffer);
    int at = 0;
    while (m.find()) {
      sb.append(buffer, at, m.start());
      AttributedStyle style =
          m.group("comment") != null
              ? AttributedStyle.DEFAULT.faint()
              : m.group("field") != null
                  ? AttributedStyle.DEFAULT.foreground(AttributedStyle.CYAN)
                  : m.group("keyword") != null
                      ? AttributedStyle.DEFAULT.foreground(AttributedStyle.MAGENTA)
                      : m.group("number") != null
                          ? AttributedStyle.DEFAULT.foreground(AttributedStyle.GREEN)
                          : AttributedStyle.DEFAULT.foreground(AttributedStyle.YELLOW);
      sb.styled(style, m.group());
      at = m.end();
    }
    sb.append(buffer.substring(at));
    return sb.toAttributedString();
  }

  @Override
  public void setErrorPattern(Pattern errorPattern) {}

  @Override
  public void setErrorIndex(int errorIndex) {}
}
