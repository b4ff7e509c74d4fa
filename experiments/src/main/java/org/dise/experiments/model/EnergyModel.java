package org.dise.experiments.model;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Energy of a run on the first paper's handheld (Section 5.4, Fig. 14(b): an HP iPAQ H3835, Intel
 * StrongARM, measured power and instruction rates per instruction type, and an 11 Mb/s wireless
 * card at 5 V x 0.285 A). Each event costs the power of its class over its rate: joules per
 * instruction = (J/s) / (instructions/s). See spec/cost-model.md.
 *
 * <ul>
 *   <li>integer instruction (IREG): 0.865 J/s / 204.79 M/s = 4.22 nJ; an inserted instruction, a
 *       stall cycle and a handler cycle cost the same (the StrongARM issues one per cycle, 204.79
 *       M/s at its 206 MHz clock);
 *   <li>load: a hit costs as IREG, a miss (IMEM-R) 0.973 / 19.462 M = 50.0 nJ; store miss (IMEM-W)
 *       1.340 / 11.625 M = 115.3 nJ; at {@code missRate} (Fig. 14(a)'s average, 0.2%);
 *   <li>floating point (FPREG, emulated in software on the StrongARM): 0.965 / 0.439 M = 2.2 uJ;
 *   <li>a transmitted byte: 1.425 W / (11 Mb/s / 8) = 1.04 uJ;
 *   <li>the phase tracker: 4 pJ per dynamic branch (Section 4), when it runs.
 * </ul>
 */
public record EnergyModel(
    double iregJ,
    double loadMissJ,
    double storeMissJ,
    double fpJ,
    double byteJ,
    double trackerPerBranchJ,
    double missRate) {

  public static EnergyModel strongArm() {
    return new EnergyModel(
        0.865 / 204.790e6,
        0.973 / 19.462e6,
        1.340 / 11.625e6,
        0.965 / 0.439e6,
        1.425 / (11e6 / 8),
        4e-12,
        0.002);
  }

  /** Joules of the application's own instructions. */
  public double application(InstructionMix m) {
    double load = (1 - missRate) * iregJ + missRate * loadMissJ;
    double store = (1 - missRate) * iregJ + missRate * storeMissJ;
    return m.integer() * iregJ + m.loads() * load + m.stores() * store + m.fp() * fpJ;
  }

  /** Joules of profiling: extra cycles (stalls, inserted code, handlers) and bytes sent. */
  public double profiling(CycleModel.Cycles c, long bytesSent, long trackedBranches) {
    double cycles = c.stalls() + c.inserted() + c.flushes() + c.handlers() + c.interrupts();
    // A handler miss goes to memory on the StrongARM (no L2): one IMEM-R miss per missing call.
    double misses = c.missCount() * loadMissJ;
    return cycles * iregJ + misses + bytesSent * byteJ + trackedBranches * trackerPerBranchJ;
  }

  public Map<String, String> describe() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("integer instruction, stall or handler cycle (nJ)", nano(iregJ));
    m.put("load miss (nJ)", nano(loadMissJ));
    m.put("store miss (nJ)", nano(storeMissJ));
    m.put("floating-point instruction (nJ)", nano(fpJ));
    m.put("transmitted byte (nJ)", nano(byteJ));
    m.put("phase tracker per branch (nJ)", nano(trackerPerBranchJ));
    m.put("cache miss rate", String.format(Locale.ROOT, "%.3f", missRate));
    return m;
  }

  private static String nano(double j) {
    return String.format(Locale.ROOT, "%.4g", j * 1e9);
  }
}
