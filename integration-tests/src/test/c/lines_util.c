/* The second compilation unit of bin/lines (see lines.c). */
__attribute__((noinline)) long mix(long a, long b) {
  for (int i = 0; i < 1000; i++) {
    a = a * 31 + (b ^ i);
  }
  return a;
}
