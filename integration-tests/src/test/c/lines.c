/*
 * Source lines (SourceLinesTest, LineTableTest): a hot loop in main and a helper in a second
 * compilation unit (lines_util.c), built with -g as DWARF 5 (bin/lines) and DWARF 4
 * (bin/lines4), so that the line tables of two CUs and both versions are read.
 */
#include <stdio.h>

long mix(long a, long b);

int main(void) {
  long s = 0;
  for (long i = 0; i < 200000; i++) {
    s += (i * 7) ^ (s >> 3);
  }
  s = mix(s, 12345);
  printf("lines %ld\n", s);
  return 0;
}
