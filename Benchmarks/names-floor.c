/* What any first screen of a memo folder pays before it can sort: every name read, on one thread.
     names-floor DIR
   opendir(3), readdir(3) to the end, closedir(3); nothing opened, nothing kept. It prints
   `names= wall= cpu=` (CPU from getrusage, user plus system). The browser's first screen needs
   every name (the newest memo may be anywhere in the folder's order), so it cannot be quicker. */
#include <dirent.h>
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  if (argc != 2) { fprintf(stderr, "usage: names-floor DIR\n"); return 2; }
  double start = now();
  DIR *dir = opendir(argv[1]);
  if (!dir) { perror(argv[1]); return 1; }
  long names = 0;
  while (readdir(dir)) names++;
  closedir(dir);
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  double cpu = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec +
               usage.ru_stime.tv_usec / 1e6;
  printf("names=%ld wall=%.6f cpu=%.6f\n", names, now() - start, cpu);
  return 0;
}
