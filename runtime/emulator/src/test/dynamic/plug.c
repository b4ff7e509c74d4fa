/* A small shared library for dyn_dlopen: a function that calls back into the program, a counter
 * in thread-local storage (the dynamic TLS model a dlopen'ed library uses), and a constructor. */
#include <stdio.h>

static __thread long calls;
long plug_loaded;

__attribute__((constructor)) static void init(void) { plug_loaded = 42; }

long plug_sum(long n, long (*f)(long)) {
  long s = 0;
  calls++;
  for (long i = 1; i <= n; i++) s += f(i);
  return s;
}

long plug_calls(void) { return calls; }

const char *plug_name(void) { return "plug"; }
