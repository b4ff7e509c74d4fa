package org.dise.repl.editors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The part of TextMate's tokenisation that {@code acf.tmLanguage.json} uses, for tests: rules with
 * {@code match} (and {@code captures}), {@code begin}/{@code end} regions over lines, {@code
 * patterns} and {@code include} of repository entries. At each position the rule whose regex
 * matches earliest wins, the first listed on a tie, a region's end before its patterns, as in
 * vscode-textmate. The grammar's regexes are written in the common subset of Oniguruma and
 * java.util.regex (no {@code \h}, no {@code (?x)}), which this class enforces by compiling every
 * one of them.
 */
final class TextMateTokenizer {
  /** One rule of the grammar, its regexes compiled. */
  record Rule(
      String name,
      Pattern match,
      Pattern begin,
      Pattern end,
      JsonNode captures,
      List<Object> patterns) {}

  private final JsonNode grammar;
  private final List<Rule> top;
  private final Map<String, List<Rule>> repository = new java.util.HashMap<>();

  TextMateTokenizer(Path file) throws IOException {
    grammar = new ObjectMapper().readTree(file.toFile());
    Iterator<Map.Entry<String, JsonNode>> it = grammar.path("repository").fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      repository.put(e.getKey(), new ArrayList<>());
    }
    it = grammar.path("repository").fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode v = e.getValue();
      if (v.has("match") || v.has("begin")) {
        repository.get(e.getKey()).add(rule(v));
      } else {
        repository.get(e.getKey()).addAll(rules(v.path("patterns")));
      }
    }
    top = rules(grammar.path("patterns"));
  }

  private List<Rule> rules(JsonNode patterns) {
    List<Rule> out = new ArrayList<>();
    for (JsonNode p : patterns) {
      if (p.has("include")) {
        String inc = p.get("include").asText();
        if (inc.equals("$self") || inc.equals("$base")) {
          out.add(new Rule("$self", null, null, null, null, List.of()));
        } else if (inc.startsWith("#") && repository.containsKey(inc.substring(1))) {
          out.add(new Rule(inc, null, null, null, null, List.of()));
        } else {
          throw new IllegalArgumentException("unknown include " + inc);
        }
      } else {
        out.add(rule(p));
      }
    }
    return out;
  }

  private Rule rule(JsonNode p) {
    String name = p.path("name").asText(null);
    if (p.has("match")) {
      return new Rule(
          name, Pattern.compile(p.get("match").asText()), null, null, p.get("captures"), List.of());
    }
    if (p.has("begin")) {
      return new Rule(
          name,
          null,
          Pattern.compile(p.get("begin").asText()),
          Pattern.compile(p.get("end").asText()),
          p.get("beginCaptures"),
          new ArrayList<>(rules(p.path("patterns"))));
    }
    throw new IllegalArgumentException("a rule without match or begin: " + p);
  }

  private List<Rule> expand(List<?> rules) {
    List<Rule> out = new ArrayList<>();
    for (Object o : rules) {
      Rule r = (Rule) o;
      if ("$self".equals(r.name()) && r.match() == null && r.begin() == null) {
        out.addAll(expand(top));
      } else if (r.name() != null
          && r.name().startsWith("#")
          && r.match() == null
          && r.begin() == null) {
        out.addAll(expand(repository.get(r.name().substring(1))));
      } else {
        out.add(r);
      }
    }
    return out;
  }

  /** The scopes of every character of a text (the innermost last); a line break has none. */
  List<List<String>> tokenize(String text) {
    List<List<String>> scopes = new ArrayList<>();
    List<Rule> stack = new ArrayList<>();
    String[] lines = text.split("\n", -1);
    for (int li = 0; li < lines.length; li++) {
      String line = lines[li];
      List<List<String>> lineScopes = new ArrayList<>();
      for (int i = 0; i < line.length(); i++) {
        lineScopes.add(null);
      }
      int pos = 0;
      while (true) {
        Rule frame = stack.isEmpty() ? null : stack.get(stack.size() - 1);
        List<Rule> candidates = expand(frame == null ? top : frame.patterns());
        int bestStart = Integer.MAX_VALUE;
        Matcher best = null;
        Rule bestRule = null;
        boolean bestIsEnd = false;
        if (frame != null) {
          Matcher m = matcher(frame.end(), line, pos);
          if (m.find()) {
            bestStart = m.start();
            best = m;
            bestIsEnd = true;
          }
        }
        for (Rule r : candidates) {
          Matcher m = matcher(r.match() != null ? r.match() : r.begin(), line, pos);
          if (m.find() && m.start() < bestStart) {
            bestStart = m.start();
            best = m;
            bestRule = r;
            bestIsEnd = false;
          }
        }
        List<String> here = names(stack);
        if (best == null) {
          fill(lineScopes, pos, line.length(), here);
          break;
        }
        fill(lineScopes, pos, best.start(), here);
        if (bestIsEnd) {
          fill(lineScopes, best.start(), best.end(), here);
          stack.remove(stack.size() - 1);
        } else {
          List<String> inner = new ArrayList<>(here);
          if (bestRule.name() != null) {
            inner.add(bestRule.name());
          }
          fill(lineScopes, best.start(), best.end(), inner);
          if (bestRule.captures() != null) {
            Iterator<Map.Entry<String, JsonNode>> it = bestRule.captures().fields();
            while (it.hasNext()) {
              Map.Entry<String, JsonNode> c = it.next();
              int g = Integer.parseInt(c.getKey());
              if (best.start(g) >= 0) {
                List<String> cs = new ArrayList<>(inner);
                cs.add(c.getValue().path("name").asText());
                fill(lineScopes, best.start(g), best.end(g), cs);
              }
            }
          }
          if (bestRule.begin() != null) {
            stack.add(bestRule);
          }
        }
        if (best.end() > pos || bestIsEnd) {
          // An end that matches empty (`$`) closes its region without consuming anything.
          pos = Math.max(pos, best.end());
        } else {
          // A zero-width match cannot make progress: TextMate moves on one character.
          pos++;
        }
        if (pos >= line.length()
            && (stack.isEmpty()
                || !matcher(stack.get(stack.size() - 1).end(), line, line.length()).find())) {
          break;
        }
      }
      scopes.addAll(lineScopes);
      if (li < lines.length - 1) {
        scopes.add(List.of());
      }
    }
    if (!stack.isEmpty()) {
      throw new IllegalStateException(
          "region " + stack.get(stack.size() - 1).name() + " is still open at the end of the text");
    }
    return scopes;
  }

  private static Matcher matcher(Pattern p, String line, int pos) {
    Matcher m = p.matcher(line);
    m.region(Math.min(pos, line.length()), line.length());
    m.useTransparentBounds(true);
    m.useAnchoringBounds(false);
    return m;
  }

  private static List<String> names(List<Rule> stack) {
    List<String> out = new ArrayList<>();
    for (Rule r : stack) {
      if (r.name() != null) {
        out.add(r.name());
      }
    }
    return out;
  }

  private static void fill(List<List<String>> scopes, int from, int to, List<String> names) {
    for (int i = Math.max(0, from); i < Math.min(to, scopes.size()); i++) {
      if (scopes.get(i) == null || names.size() >= scopes.get(i).size()) {
        scopes.set(i, List.copyOf(names));
      }
    }
  }
}
