/* The system calls of a listing that reads what `stash ls` reads of every memo, and nothing else,
   on THREADS threads (the bench runs 2, one per core):
     listing-floor-all DIR THREADS [whole]
   readdir(3) over the folder, then, split among the threads by name: for `_audio.m4a`, open(2),
   fstat(2) and two pread(2)s (the first 4 kB and the last 32 kB, as listing-floor.c); for
   `_title.txt`, open, fstat and one read of up to 4 kB; for `_transcription.vtt`, open and a
   read of its first 16 bytes (the WEBVTT signature); for `_track.gpx`, open, fstat and a read of
   its last 256 bytes (the closing tag); for `.parts`, opendir and readdir. Files are opened as
   ReadOnlyFile opens them (O_RDONLY|O_NONBLOCK|O_CLOEXEC, and O_NOFOLLOW). It prints
   `names= files= bytes= wall= cpu=` (CPU from getrusage, user plus system, every thread). No
   parsing and no output: the floor of a listing that does the same work as ours.
   With `whole`, the floor of `stash ls` and `stash lint` since `!` is lint's account (issue 45
   §2): every transcript, route and title read whole (and each file in a parts folder), each
   audio's head and tail as above. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { maxThreads = 64, head = 4 * 1024, tail = 32 * 1024, titleBytes = 4 * 1024, routeTail = 256 };

static char **names;
static long count;
static int folder;
static long threads;
static int whole;
static long filesRead[maxThreads], bytesRead[maxThreads];

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

static int endsWith(const char *name, size_t length, const char *suffix) {
  size_t n = strlen(suffix);
  return length >= n && memcmp(name + length - n, suffix, n) == 0;
}

static void fail(const char *name) {
  perror(name);
  exit(1);
}

static int openFile(const char *name) {
  int fd = openat(folder, name, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) fail(name);
  return fd;
}

static off_t sizeOf(int fd, const char *name) {
  struct stat info;
  if (fstat(fd, &info) != 0) fail(name);
  return info.st_size;
}

/* Reads `fd` to its end through `buffer` (`size` bytes); the bytes read. */
static ssize_t readWhole(int fd, char *buffer, size_t size, const char *name) {
  ssize_t total = 0, got;
  while ((got = read(fd, buffer, size)) > 0) total += got;
  if (got < 0) fail(name);
  return total;
}

static void *work(void *argument) {
  long thread = (long)argument;
  size_t bufferSize = whole ? 256 * 1024 : tail;
  char *buffer = malloc(bufferSize);
  long files = 0, bytes = 0;
  for (long i = thread; i < count; i += threads) {
    const char *name = names[i];
    size_t length = strlen(name);
    ssize_t got = 0;
    if (endsWith(name, length, "_audio.m4a")) {
      int fd = openFile(name);
      off_t size = sizeOf(fd, name);
      ssize_t first = pread(fd, buffer, head, 0);
      ssize_t last = pread(fd, buffer, tail, size > tail ? size - tail : 0);
      if (first < 0 || last < 0) fail(name);
      got = first + last;
      close(fd);
    } else if (endsWith(name, length, "_title.txt")) {
      int fd = openFile(name);
      sizeOf(fd, name);
      got = whole ? readWhole(fd, buffer, bufferSize, name) : pread(fd, buffer, titleBytes, 0);
      close(fd);
    } else if (endsWith(name, length, "_transcription.vtt")) {
      int fd = openFile(name);
      got = whole ? readWhole(fd, buffer, bufferSize, name) : pread(fd, buffer, 16, 0);
      close(fd);
    } else if (endsWith(name, length, "_track.gpx")) {
      int fd = openFile(name);
      off_t size = sizeOf(fd, name);
      got = whole ? readWhole(fd, buffer, bufferSize, name)
                  : pread(fd, buffer, routeTail, size > routeTail ? size - routeTail : 0);
      close(fd);
    } else if (endsWith(name, length, ".parts")) {
      int fd = openat(folder, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
      DIR *parts = fd < 0 ? NULL : fdopendir(fd);
      if (!parts) fail(name);
      struct dirent *part;
      while ((part = readdir(parts))) {
        got++;
        if (!whole || part->d_name[0] == '.') continue;
        int partFile = openat(dirfd(parts), part->d_name, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
        if (partFile < 0) fail(part->d_name);
        got += readWhole(partFile, buffer, bufferSize, part->d_name);
        close(partFile);
      }
      closedir(parts);
    } else {
      continue;
    }
    if (got < 0) fail(name);
    files++;
    bytes += got;
  }
  free(buffer);
  filesRead[thread] = files;
  bytesRead[thread] = bytes;
  return NULL;
}

int main(int argc, char **argv) {
  whole = argc == 4 && strcmp(argv[3], "whole") == 0;
  if ((argc != 3 && !whole) || atol(argv[2]) < 1 || atol(argv[2]) > maxThreads) {
    fprintf(stderr, "usage: listing-floor-all DIR THREADS [whole] (THREADS 1 to %d)\n", maxThreads);
    return 2;
  }
  threads = atol(argv[2]);
  double start = now();
  DIR *dir = opendir(argv[1]);
  if (!dir) fail(argv[1]);
  folder = dirfd(dir);
  long capacity = 1024;
  names = malloc(capacity * sizeof *names);
  struct dirent *entry;
  while ((entry = readdir(dir))) {
    if (count == capacity) names = realloc(names, (capacity *= 2) * sizeof *names);
    names[count++] = strdup(entry->d_name);
  }
  pthread_t running[maxThreads];
  for (long t = 0; t < threads; t++) pthread_create(&running[t], NULL, work, (void *)t);
  long files = 0, bytes = 0;
  for (long t = 0; t < threads; t++) {
    pthread_join(running[t], NULL);
    files += filesRead[t];
    bytes += bytesRead[t];
  }
  closedir(dir);
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  double cpu = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec +
               usage.ru_stime.tv_usec / 1e6;
  printf("names=%ld files=%ld bytes=%ld wall=%.6f cpu=%.6f\n", count, files, bytes, now() - start, cpu);
  return 0;
}
