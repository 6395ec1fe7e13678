/* The system calls any search of a memo folder's words must make, and nothing else, on two threads:
     search-floor DIR
   readdir(3) over the folder on the main thread; every name ending in `_transcription.vtt` or
   `_title.txt` is handed on as it is read, and a second thread opens (O_RDONLY|O_NONBLOCK|
   O_NOFOLLOW|O_CLOEXEC, as ReadOnlyFile opens), reads (one pread(2) of up to 64 kB, as a search
   starts) and closes each, the main thread joining it once the folder is read. It prints
   `files= bytes= wall= cpu=` (CPU from getrusage, user plus system). Nothing is searched and
   nothing sorted: whatever `stash search` does beyond this is its own cost. The listing is read
   while files are opened, the quickest order; a search that prints memos in the listing's order
   could start no sooner. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

enum { block = 1 << 16, blocks = 256, batch = 16 };
static char **names[blocks];
static atomic_long listed, taken, bytes;
static atomic_int done;
static int folder;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

static int wanted(const char *name) {
  size_t length = strlen(name);
  return (length > 18 && strcmp(name + length - 18, "_transcription.vtt") == 0)
         || (length > 10 && strcmp(name + length - 10, "_title.txt") == 0);
}

/* Reads names as they are listed, a batch at a time, until the folder is read and all are taken. */
static void *reader(void *unused) {
  (void)unused;
  static _Thread_local char buffer[1 << 16];
  for (;;) {
    int finished = atomic_load(&done);
    long available = atomic_load(&listed), first = atomic_load(&taken);
    if (first >= available) {
      if (finished) return NULL;
      sched_yield();
      continue;
    }
    long last = first + batch < available ? first + batch : available;
    if (!atomic_compare_exchange_weak(&taken, &first, last)) continue;
    for (long n = first; n < last; n++) {
      int file = openat(folder, names[n / block][n % block], O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
      if (file < 0) continue;
      ssize_t got = pread(file, buffer, sizeof buffer, 0);
      if (got > 0) atomic_fetch_add(&bytes, got);
      close(file);
    }
  }
}

int main(int argc, char **argv) {
  if (argc != 2) { fprintf(stderr, "usage: search-floor DIR\n"); return 2; }
  double start = now();
  DIR *dir = opendir(argv[1]);
  if (!dir) { perror(argv[1]); return 1; }
  folder = dirfd(dir);
  pthread_t second;
  pthread_create(&second, NULL, reader, NULL);
  struct dirent *entry;
  long count = 0;
  while ((entry = readdir(dir))) {
    if (!wanted(entry->d_name)) continue;
    if (count / block >= blocks) { fprintf(stderr, "too many files\n"); return 1; }
    if (!names[count / block]) names[count / block] = malloc(block * sizeof(char *));
    names[count / block][count % block] = strdup(entry->d_name);
    count = atomic_fetch_add(&listed, 1) + 1;
  }
  atomic_store(&done, 1);
  reader(NULL);
  pthread_join(second, NULL);
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  double cpu = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec
               + usage.ru_stime.tv_usec / 1e6;
  printf("files=%ld bytes=%ld wall=%.6f cpu=%.6f\n", count, (long)atomic_load(&bytes), now() - start, cpu);
  return 0;
}
