// Reads a file named by argv[1] and its standard input, works on every input byte, and writes
// argv[2] when given: acf sweep's --allow-read, --allow-write and --stdin test.
#include <stdio.h>

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: filework FILE [OUT] < INPUT\n");
    return 2;
  }
  FILE *f = fopen(argv[1], "r");
  if (!f) {
    perror(argv[1]);
    return 2;
  }
  long sum = 0;
  int c;
  while ((c = fgetc(f)) != EOF) {
    sum += c;
  }
  fclose(f);
  long n = 0;
  // Each input byte picks which branches its loop takes: the profile depends on the input.
  while ((c = getchar()) != EOF) {
    for (int i = 0; i < 1000; i++) {
      if ((c + i) % 3 == 0) {
        n += i;
      } else if (c > 'm') {
        n -= 1;
      } else {
        n ^= i;
      }
    }
  }
  if (argc > 2) {
    FILE *o = fopen(argv[2], "w");
    if (!o) {
      perror(argv[2]);
      return 3;
    }
    fprintf(o, "%ld %ld\n", sum, n);
    fclose(o);
  }
  printf("%ld %ld\n", sum, n);
  return 0;
}
