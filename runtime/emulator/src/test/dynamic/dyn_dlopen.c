/* dlopen of a library that sits beside the program (found through the $ORIGIN run path), dlsym,
 * a call into it that calls back, a variable set by its constructor, thread-local storage in it,
 * dlerror for a library that does not exist, dlclose. */
#include <dlfcn.h>
#include <stdio.h>

static long square(long x) { return x * x; }

int main(void) {
  void *missing = dlopen("libdoesnotexist.so", RTLD_NOW);
  printf("missing: %s\n", missing ? "loaded?" : "NULL (dlerror set)");
  void *h = dlopen("libplug.so", RTLD_NOW);
  if (!h) {
    printf("dlopen failed: %s\n", dlerror());
    return 1;
  }
  long (*sum)(long, long (*)(long)) = (long (*)(long, long (*)(long)))dlsym(h, "plug_sum");
  long (*calls)(void) = (long (*)(void))dlsym(h, "plug_calls");
  const char *(*name)(void) = (const char *(*)(void))dlsym(h, "plug_name");
  long *loaded = (long *)dlsym(h, "plug_loaded");
  printf("dlsym: %s %s %s %s\n", sum ? "sum" : "-", calls ? "calls" : "-", name ? "name" : "-",
         loaded ? "loaded" : "-");
  long s = 0;
  for (int i = 0; i < 3; i++) s += sum(100, square);
  printf("%s: sum=%ld calls=%ld constructor=%ld\n", name(), s, calls(), *loaded);
  printf("nosuch: %s\n", dlsym(h, "plug_nosuch") ? "found?" : "NULL");
  printf("dlclose=%d\n", dlclose(h));
  return (int)(s % 100);
}
