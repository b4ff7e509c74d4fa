package org.dise.runtime.linux;

import static com.google.common.truth.Truth.assertThat;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotLinkException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The errno a guest sees for a host I/O failure: by exception type, else by strerror's text. */
class HostErrorsTest {
  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          Broken pipe                    | 32
          Invalid cross-device link      | 18
          Read-only file system          | 13
          Too many open files            | 23
          Directory not empty            | 39
          Is a directory                 | 21
          something odd                  | 5
          """)
  void aFailureWithoutItsOwnTypeMapsByTheHostsMessage(String message, int errno) {
    // "Directory not empty" names a directory too: the earlier row, ENOTEMPTY, wins.
    assertThat(HostErrors.errno(new IOException(message))).isEqualTo(errno);
  }

  @Test
  void aTypedFailureMapsByItsTypeAndNoMessageIsEio() {
    assertThat(HostErrors.errno(new NoSuchFileException("/x"))).isEqualTo(Errno.ENOENT);
    assertThat(HostErrors.errno(new AccessDeniedException("/x"))).isEqualTo(Errno.EACCES);
    assertThat(HostErrors.errno(new NotLinkException("/x"))).isEqualTo(Errno.EINVAL);
    assertThat(HostErrors.errno(new IOException((String) null))).isEqualTo(Errno.EIO);
  }
}
