package org.dise.repl.common;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON that profile files need, through Jackson: string quoting for writing, and a reader that
 * gives objects as maps, arrays as lists, strings as strings, {@code true}/{@code false} as
 * booleans, {@code null} as null and numbers as {@link Num} (their text, so counts keep every
 * digit).
 */
public final class Json {
  private static final JsonFactory FACTORY = new JsonFactory();

  private Json() {}

  /** A JSON number as written. */
  public record Num(String text) {
    @Override
    public String toString() {
      return text;
    }
  }

  /**
   * {@code text} as a JSON string literal, as Jackson's ObjectMapper quotes it, without building
   * one (a run's profile files need only this; {@link SummaryJson}).
   */
  public static String quote(String text) {
    return SummaryJson.write(text);
  }

  /**
   * Parses one JSON value.
   *
   * @throws IllegalArgumentException {@code line:col: message} where the text stops being JSON
   */
  public static Object parse(String text) {
    // The streaming parser keeps each number's text as written (0.500000 stays 0.500000).
    try (JsonParser p = FACTORY.createParser(text)) {
      JsonToken t = p.nextToken();
      if (t == null) {
        throw new IllegalArgumentException("1:1: no JSON value (the file is empty)");
      }
      Object v = value(p, t);
      if (p.nextToken() != null) {
        JsonLocation at = p.currentTokenLocation();
        throw new IllegalArgumentException(
            at.getLineNr() + ":" + at.getColumnNr() + ": text after the JSON value");
      }
      return v;
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      String what = e.getOriginalMessage();
      throw new IllegalArgumentException(
          at == null ? what : at.getLineNr() + ":" + at.getColumnNr() + ": " + what);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // reading a String does no I/O
    }
  }

  private static Object value(JsonParser p, JsonToken t) throws IOException {
    switch (t) {
      case START_OBJECT -> {
        Map<String, Object> m = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String name = p.currentName();
          m.put(name, value(p, p.nextToken()));
        }
        return m;
      }
      case START_ARRAY -> {
        List<Object> l = new ArrayList<>();
        for (JsonToken x = p.nextToken(); x != JsonToken.END_ARRAY; x = p.nextToken()) {
          l.add(value(p, x));
        }
        return l;
      }
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
        return new Num(p.getText());
      }
      case VALUE_TRUE -> {
        return true;
      }
      case VALUE_FALSE -> {
        return false;
      }
      case VALUE_NULL -> {
        return null;
      }
      default -> {
        return p.getText();
      }
    }
  }
}
