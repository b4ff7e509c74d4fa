package org.dise.center;

import java.util.List;
import java.util.Map;
import org.dise.runtime.sink.ProfileTable;

/**
 * One part of a device's profile upload (spec/remote.md): who sent it and for what program and
 * configuration, the run's figures so far, each sink's profile added since the previous part, and,
 * when a phase tracker runs, what each phase of this part held and the interval trace.
 *
 * @param uploadId the run's upload id: a retried part with the same id and number is stored once
 * @param part the part's number, from 0; {@code last} marks the final one
 */
public record Upload(
    String uploadId,
    int part,
    boolean last,
    String device,
    String programName,
    String programSha256,
    String configHash,
    Figures figures,
    List<SinkProfile> profiles,
    List<PhaseReport> phases,
    List<Integer> trace) {

  /** The upload format's version; a center refuses others (415). */
  public static final int VERSION = 1;

  /** What a device name may be, here and at the center: 1 to 64 of {@code [A-Za-z0-9._-]}. */
  public static final java.util.regex.Pattern DEVICE_NAME =
      java.util.regex.Pattern.compile("[A-Za-z0-9._-]{1,64}");

  /** The run's figures covered by this part (intervals in application instructions). */
  public record Figures(
      long intervals,
      long sampledIntervals,
      long instructions,
      long sampledInstructions,
      long interval,
      Integer exitStatus) {}

  /** One sink's profile rows in this part, in the shape {@code acf run --out} writes. */
  public record SinkProfile(String sink, ProfileTable table) {}

  /**
   * What one phase of the device's tracker covered in this part: its signature (the normalised
   * branch footprint of its first interval), its intervals and instructions, those sampled, and per
   * sink the weights its sampled intervals added.
   */
  public record PhaseReport(
      int localPhase,
      double[] signature,
      long intervals,
      long instructions,
      long sampledIntervals,
      long sampledInstructions,
      Map<String, Map<String, Long>> weights) {}
}
