package org.dise.center;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A stream that tells {@link #counted} of every byte read through it, so that a limit (on the
 * body's size, on its rate) is checked while reading, not after.
 */
abstract class MeteredInputStream extends FilterInputStream {
  MeteredInputStream(InputStream in) {
    super(in);
  }

  /** Called after {@code n} (at least one) more bytes were read; throws to refuse the stream. */
  protected abstract void counted(int n) throws IOException;

  @Override
  public int read() throws IOException {
    int b = super.read();
    if (b >= 0) {
      counted(1);
    }
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    int n = super.read(b, off, len);
    if (n > 0) {
      counted(n);
    }
    return n;
  }
}
