package org.dise.experiments;

import java.util.ArrayList;
import java.util.List;

/** What an experiment produced: its data, its figures, the paper beside ours, and notes. */
public final class Outcome {
  public final Table data;
  public final List<Figure> figures = new ArrayList<>();
  public final List<Comparison> comparisons = new ArrayList<>();
  public final List<String> notes = new ArrayList<>();

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

  public Outcome note(String text) {
    notes.add(text);
    return this;
  }
}
