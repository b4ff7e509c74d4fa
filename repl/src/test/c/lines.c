// Echoes its standard input line by line and counts the lines: the REPL's :stdin test.
#include <stdio.h>

int main(void) {
  char buf[256];
  int n = 0;
  while (fgets(buf, sizeof buf, stdin)) {
    n++;
    printf("got: %s", buf);
  }
  printf("%d lines\n", n);
  return 0;
}
