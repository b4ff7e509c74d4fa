package org.dise.runtime.linux;

/**
 * A form of a partly implemented call that acf does not implement (ppoll on descriptors, a virtual
 * interval timer): the kernel treats it as an unsupported call, under the run's {@link
 * OnUnsupported} policy, naming {@link #what}.
 */
final class Unimplemented extends RuntimeException {
  final String what;

  Unimplemented(String what) {
    super(what, null, false, false);
    this.what = what;
  }
}
