/* The system calls any listing of a memo folder must make, and nothing else, on one thread:
     listing-floor DIR
   readdir(3) over the folder; for every name ending in `_audio.m4a`: open(2) (O_RDONLY|O_NONBLOCK|
   O_CLOEXEC, as ReadOnlyFile opens), fstat(2), two pread(2)s of the sizes our MP4 reader starts
   with (the first 4 kB, where the first boxes are, and the last 32 kB, where a fragmented file's
   last fragments and a finished file's moov at the end are), close(2). It prints
   `names= audio= bytes= wall= cpu=` (CPU from getrusage, user plus system). No parsing, no
   titles, no parts folders: whatever a real listing does beyond this is its own cost. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  if (argc != 2) { fprintf(stderr, "usage: listing-floor DIR\n"); return 2; }
  double start = now();
  DIR *dir = opendir(argv[1]);
  if (!dir) { perror(argv[1]); return 1; }
  int folder = dirfd(dir);
  enum { head = 4 * 1024, tail = 32 * 1024 };
  static char buffer[tail];
  long names = 0, audio = 0, bytes = 0;
  const char *suffix = "_audio.m4a";
  size_t suffixLength = strlen(suffix);
  struct dirent *entry;
  while ((entry = readdir(dir))) {
    names++;
    size_t length = strlen(entry->d_name);
    if (length < suffixLength || strcmp(entry->d_name + length - suffixLength, suffix) != 0) continue;
    int fd = openat(folder, entry->d_name, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) { perror(entry->d_name); return 1; }
    struct stat info;
    if (fstat(fd, &info) != 0) { perror(entry->d_name); return 1; }
    ssize_t first = pread(fd, buffer, head, 0);
    off_t from = info.st_size > tail ? info.st_size - tail : 0;
    ssize_t last = pread(fd, buffer, tail, from);
    if (first < 0 || last < 0) { perror(entry->d_name); return 1; }
    bytes += first + last;
    close(fd);
    audio++;
  }
  closedir(dir);
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  double cpu = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec +
               usage.ru_stime.tv_usec / 1e6;
  printf("names=%ld audio=%ld bytes=%ld wall=%.6f cpu=%.6f\n", names, audio, bytes, now() - start, cpu);
  return 0;
}
