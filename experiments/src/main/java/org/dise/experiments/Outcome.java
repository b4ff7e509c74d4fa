package org.dise.experiments;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an experiment produced: its data, its figures, the paper beside ours, notes, and the
 * settings every run shared (the estimator's, sampler's or model's parameters, defaults included:
 * written as constant columns of the CSV and as a table in the report, so that the data say what
 * produced them after a default changes).
 */
public final class Outcome {
  public final Table data;
  public final List<Figure> figures = new ArrayList<>();
  public final List<Comparison> comparisons = new ArrayList<>();
  public final List<String> notes = new ArrayList<>();
  public final Map<String, String> settings = new LinkedHashMap<>();

  public Outcome(Table data) {
    this.data = data;
  }

  public Outcome figure(Figure f) {
    figures.add(f);
    return this;
  }

  public Outcome compare(String what, String paper, String ours, String note) {
    comparisons.add(new Comparison(what, paper, ours, note));
    return this;
  }

  /** A setting every run of the experiment shared; a column of the data keeps its own name. */
  public Outcome setting(String name, Object value) {
    settings.put(name, value instanceof Double ? Table.cell(value) : String.valueOf(value));
    return this;
  }

  /**
   * Every setting of one component, each named {@code prefix.parameter}, but those the experiment
   * varies ({@code varied}: the data have them per row).
   */
  public Outcome settings(String prefix, Map<String, String> values, String... varied) {
    List<String> skip = List.of(varied);
    values.forEach(
        (k, v) -> {
          if (!skip.contains(k)) {
            setting(prefix + "." + k, v);
          }
        });
    return this;
  }

  /**
   * A sink binding's settings: {@code given} with the catalogue's defaults of {@code component}
   * (spec/acf-language.md), each named {@code prefix.parameter}, but those in {@code varied}.
   */
  public Outcome component(
      String prefix, String component, Map<String, String> given, String... varied) {
    return settings(
        prefix,
        org.dise.runtime.dise.Catalogue.find(component)
            .map(c -> c.withDefaults(given))
            .orElse(given),
        varied);
  }

  /** A trigger strategy's settings, defaults included, but those the experiment varies. */
  public Outcome settings(org.dise.runtime.trigger.TriggerSpec spec, String... varied) {
    return settings(spec.component(), spec.settings(), varied);
  }

  /** A model's parameters (a record: cost-model.md names each component), {@code prefix.name}. */
  public Outcome model(String prefix, Record model) {
    for (java.lang.reflect.RecordComponent c : model.getClass().getRecordComponents()) {
      try {
        setting(prefix + "." + c.getName(), c.getAccessor().invoke(model));
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e); // a record's accessors are public
      }
    }
    return this;
  }

  public Outcome note(String text) {
    notes.add(text);
    return this;
  }
}
