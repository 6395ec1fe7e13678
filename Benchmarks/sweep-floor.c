/* The floor under the recovery sweep: over a memo folder of crashed captures like the ones
   stash-bench makes, the least work any correct sweep must do, in plain C with nothing of ours in
   between. Compiled by stash-bench (cc -O2, -lexpat -pthread) at run time; usage:

     sweep-floor FOLDER THREADS

   For every `<base>.parts` folder in FOLDER: list it and lstat every entry (a sweep needs each
   entry's kind and modification time); open (O_NOFOLLOW|O_NONBLOCK), fstat, read and close every
   part; parse every route part with bare libexpat (one XML_Parse over the whole part, handlers that
   only count elements and character data); scan every transcript part once, counting lines (a
   stand-in for a WebVTT parse, which must at least look at every byte); write each kind's finished
   file (an O_EXCL temporary name in FOLDER, as many bytes as its parts hold, renamed with
   RENAME_NOREPLACE to `<base>_transcription.vtt` / `<base>_track.gpx`); unlink the parts and rmdir
   the parts folder. No fsync: the figure it is set against is the sweep's work besides fsync.
   Captures are dealt out to THREADS threads through an atomic counter; each does a whole capture.

   Prints one line: "captures=N parts=N bytes=N elements=N text=N lines=N wall=S cpu=S" (wall and
   CPU seconds, CPU from getrusage RUSAGE_SELF, user plus system, all threads). Any failed call
   prints its path and errno and exits 1; a bad argument exits 2. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <expat.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE 1
#endif

/* The phone numbers parts from 0001; the bench writes 40 of each kind. */
enum { MAX_PARTS = 10000, KINDS = 2, TRANSCRIPT = 0, ROUTE = 1 };

static const char *folder;
static int folder_fd;
static char **captures; /* the `<base>` of every `<base>.parts` */
static size_t capture_count;
static atomic_size_t next_capture;

/* What the threads found, summed at the end so the work cannot be optimized away. */
static atomic_ulong total_parts, total_bytes, total_elements, total_text, total_lines;

static void fail(const char *doing, const char *path, const char *name) {
  int code = errno;
  fprintf(stderr, "sweep-floor: cannot %s %s%s%s: errno %d (%s)\n", doing, path, name ? "/" : "",
          name ? name : "", code, strerror(code));
  exit(1);
}

/* One thread's state: a reusable parser and a buffer per kind that the parts are read into, one
   after another, so the finished file is written from it without a copy. */
struct worker {
  XML_Parser parser;
  unsigned long salt;
  char *buffer[KINDS];
  size_t capacity[KINDS];
  /* Per part number, the entry's name (NUL when absent), for taking the parts in order. */
  char (*names[KINDS])[32];
  unsigned long elements, text, lines, parts, bytes;
};

static void XMLCALL start_element(void *data, const XML_Char *name, const XML_Char **attributes) {
  (void)name;
  (void)attributes;
  ((struct worker *)data)->elements++;
}

static void XMLCALL character_data(void *data, const XML_Char *text, int length) {
  (void)text;
  ((struct worker *)data)->text += (unsigned long)length;
}

/* "transcription.NNNN.vtt" or "track.NNNN.gpx": the kind and number, or -1. */
static int part_number(const char *name, int *kind) {
  const char *digits;
  const char *suffix;
  if (strncmp(name, "transcription.", 14) == 0) {
    *kind = TRANSCRIPT;
    digits = name + 14;
    suffix = ".vtt";
  } else if (strncmp(name, "track.", 6) == 0) {
    *kind = ROUTE;
    digits = name + 6;
    suffix = ".gpx";
  } else {
    return -1;
  }
  int number = 0;
  for (int i = 0; i < 4; i++) {
    if (digits[i] < '0' || digits[i] > '9') return -1;
    number = number * 10 + (digits[i] - '0');
  }
  if (number == 0 || strcmp(digits + 4, suffix) != 0) return -1;
  return number;
}

/* Reads part `name` of the parts folder `parts_fd` onto the end of the worker's buffer for `kind`,
   sized from fstat plus one byte to see the end in one read(2), as StashRecover reads a part. */
static size_t read_part(struct worker *w, int kind, size_t used, int parts_fd, const char *shown,
                        const char *name) {
  int fd = openat(parts_fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) fail("open", shown, name);
  struct stat info;
  if (fstat(fd, &info) != 0) fail("fstat", shown, name);
  if (!S_ISREG(info.st_mode)) {
    errno = EINVAL;
    fail("read (not a regular file)", shown, name);
  }
  size_t start = used;
  for (;;) {
    size_t want = (size_t)info.st_size + 1;
    if (w->capacity[kind] - used < want) {
      size_t capacity = w->capacity[kind] * 2 > used + want ? w->capacity[kind] * 2 : used + want;
      w->buffer[kind] = realloc(w->buffer[kind], capacity);
      if (!w->buffer[kind]) fail("allocate for", shown, name);
      w->capacity[kind] = capacity;
    }
    ssize_t n = read(fd, w->buffer[kind] + used, w->capacity[kind] - used);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("read", shown, name);
    }
    used += (size_t)n;
    if (n == 0 || used - start == (size_t)info.st_size) break;
  }
  if (close(fd) != 0) fail("close", shown, name);
  size_t length = used - start;
  const char *bytes = w->buffer[kind] + start;
  if (kind == ROUTE) {
    XML_ParserReset(w->parser, NULL);
    XML_SetHashSalt(w->parser, w->salt);
    XML_SetUserData(w->parser, w);
    XML_SetElementHandler(w->parser, start_element, NULL);
    XML_SetCharacterDataHandler(w->parser, character_data);
    if (XML_Parse(w->parser, bytes, (int)length, 1) == XML_STATUS_ERROR) {
      fprintf(stderr, "sweep-floor: %s/%s: %s at line %lu\n", shown, name,
              XML_ErrorString(XML_GetErrorCode(w->parser)),
              (unsigned long)XML_GetCurrentLineNumber(w->parser));
      exit(1);
    }
  } else {
    /* The WebVTT stand-in: every byte looked at once. */
    unsigned long lines = 0;
    for (size_t i = 0; i < length; i++) lines += bytes[i] == '\n';
    w->lines += lines;
  }
  w->parts++;
  w->bytes += length;
  return used;
}

/* Writes `length` bytes of `bytes` under a temporary name in the memo folder and renames it, never
   over an existing file, to the finished name. */
static void publish(const char *base, const char *suffix, const char *bytes, size_t length) {
  char final[512], temporary[600];
  if (snprintf(final, sizeof final, "%s%s", base, suffix) >= (int)sizeof final) {
    errno = ENAMETOOLONG;
    fail("name", folder, base);
  }
  /* StashRecover's shape of name; a fixed suffix, since O_EXCL refuses a clash anyway. */
  snprintf(temporary, sizeof temporary, ".%s.stash-tmp-floor0", final);
  int fd = openat(folder_fd, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) fail("create", folder, temporary);
  size_t done = 0;
  while (done < length) {
    ssize_t n = write(fd, bytes + done, length - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("write", folder, temporary);
    }
    done += (size_t)n;
  }
  if (close(fd) != 0) fail("close", folder, temporary);
  if (renameat2(folder_fd, temporary, folder_fd, final, RENAME_NOREPLACE) != 0)
    fail("rename into place", folder, final);
}

static void sweep_capture(struct worker *w, const char *base) {
  char parts[512];
  if (snprintf(parts, sizeof parts, "%s.parts", base) >= (int)sizeof parts) {
    errno = ENAMETOOLONG;
    fail("name", folder, base);
  }
  /* The parts folder's full path, for messages only: calls go through parts_fd. */
  char shown[1024];
  snprintf(shown, sizeof shown, "%s/%s", folder, parts);
  int parts_fd = openat(folder_fd, parts, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (parts_fd < 0) fail("open", folder, parts);
  /* The listing keeps its own descriptor: parts_fd stays for the *at calls. */
  int list_fd = dup(parts_fd);
  if (list_fd < 0) fail("dup", folder, parts);
  DIR *listing = fdopendir(list_fd);
  if (!listing) fail("list", folder, parts);
  int highest[KINDS] = {0, 0};
  struct dirent *entry;
  errno = 0;
  while ((entry = readdir(listing))) {
    const char *name = entry->d_name;
    if (name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0))) continue;
    struct stat info;
    if (fstatat(parts_fd, name, &info, AT_SYMLINK_NOFOLLOW) != 0) fail("lstat", shown, name);
    int kind;
    int number = part_number(name, &kind);
    if (number < 0 || !S_ISREG(info.st_mode)) {
      errno = EEXIST;
      fail("sweep (a stranger's file)", shown, name);
    }
    memcpy(w->names[kind][number], name, strlen(name) + 1);
    if (number > highest[kind]) highest[kind] = number;
    errno = 0;
  }
  if (errno != 0) fail("list", folder, parts);
  static const char *const suffixes[KINDS] = {"_transcription.vtt", "_track.gpx"};
  /* Transcripts first, then routes, as the sweep does; parts in number order. */
  for (int kind = 0; kind < KINDS; kind++) {
    size_t used = 0;
    for (int number = 1; number <= highest[kind]; number++) {
      if (!w->names[kind][number][0]) {
        char missing[32];
        snprintf(missing, sizeof missing, "%s.%04d.%s", kind == ROUTE ? "track" : "transcription", number,
                 kind == ROUTE ? "gpx" : "vtt");
        errno = ENOENT;
        fail("find (a gap in the numbering)", shown, missing);
      }
      used = read_part(w, kind, used, parts_fd, shown, w->names[kind][number]);
    }
    if (highest[kind] == 0) continue;
    publish(base, suffixes[kind], w->buffer[kind], used);
    for (int number = 1; number <= highest[kind]; number++) {
      if (unlinkat(parts_fd, w->names[kind][number], 0) != 0)
        fail("unlink", shown, w->names[kind][number]);
      w->names[kind][number][0] = 0;
    }
  }
  closedir(listing);
  close(parts_fd);
  if (unlinkat(folder_fd, parts, AT_REMOVEDIR) != 0) fail("rmdir", folder, parts);
}

static void *work(void *unused) {
  (void)unused;
  struct worker w;
  memset(&w, 0, sizeof w);
  w.parser = XML_ParserCreateNS(NULL, '\001');
  if (!w.parser) fail("create a parser for", folder, NULL);
  /* One salt for expat's hash tables per thread, as GPXReader draws one per process: left unset,
     expat calls getrandom(2) at every parse, a system call per route part. */
  if (getrandom(&w.salt, sizeof w.salt, 0) != sizeof w.salt) fail("draw a hash salt for", folder, NULL);
  for (int kind = 0; kind < KINDS; kind++) {
    w.names[kind] = calloc(MAX_PARTS, sizeof *w.names[kind]);
    w.capacity[kind] = 256 * 1024;
    w.buffer[kind] = malloc(w.capacity[kind]);
    if (!w.names[kind] || !w.buffer[kind]) fail("allocate for", folder, NULL);
  }
  for (;;) {
    size_t index = atomic_fetch_add(&next_capture, 1);
    if (index >= capture_count) break;
    sweep_capture(&w, captures[index]);
  }
  atomic_fetch_add(&total_parts, w.parts);
  atomic_fetch_add(&total_bytes, w.bytes);
  atomic_fetch_add(&total_elements, w.elements);
  atomic_fetch_add(&total_text, w.text);
  atomic_fetch_add(&total_lines, w.lines);
  XML_ParserFree(w.parser);
  for (int kind = 0; kind < KINDS; kind++) {
    free(w.names[kind]);
    free(w.buffer[kind]);
  }
  return NULL;
}

static double seconds(struct timeval value) { return (double)value.tv_sec + (double)value.tv_usec / 1e6; }

int main(int argc, char **argv) {
  char *end = NULL;
  long threads = argc == 3 ? strtol(argv[2], &end, 10) : 0;
  if (argc != 3 || *end != 0 || threads < 1 || threads > 256) {
    fprintf(stderr, "usage: sweep-floor FOLDER THREADS\n");
    return 2;
  }
  folder = argv[1];
  struct timespec start, finish;
  clock_gettime(CLOCK_MONOTONIC, &start);

  folder_fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (folder_fd < 0) fail("open", folder, NULL);
  int list_fd = dup(folder_fd);
  if (list_fd < 0) fail("dup", folder, NULL);
  DIR *listing = fdopendir(list_fd);
  if (!listing) fail("list", folder, NULL);
  size_t capacity = 1024;
  captures = malloc(capacity * sizeof *captures);
  if (!captures) fail("allocate for", folder, NULL);
  struct dirent *entry;
  errno = 0;
  while ((entry = readdir(listing))) {
    size_t length = strlen(entry->d_name);
    if (length > 6 && strcmp(entry->d_name + length - 6, ".parts") == 0) {
      if (capture_count == capacity) {
        capacity *= 2;
        captures = realloc(captures, capacity * sizeof *captures);
        if (!captures) fail("allocate for", folder, NULL);
      }
      captures[capture_count] = strndup(entry->d_name, length - 6);
      if (!captures[capture_count]) fail("allocate for", folder, NULL);
      capture_count++;
    }
    errno = 0;
  }
  if (errno != 0) fail("list", folder, NULL);
  closedir(listing);

  pthread_t ids[256];
  for (long i = 0; i < threads; i++) {
    int code = pthread_create(&ids[i], NULL, work, NULL);
    if (code != 0) {
      errno = code;
      fail("start a thread for", folder, NULL);
    }
  }
  for (long i = 0; i < threads; i++) pthread_join(ids[i], NULL);

  clock_gettime(CLOCK_MONOTONIC, &finish);
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  printf("captures=%zu parts=%lu bytes=%lu elements=%lu text=%lu lines=%lu wall=%.6f cpu=%.6f\n",
         capture_count, atomic_load(&total_parts), atomic_load(&total_bytes),
         atomic_load(&total_elements), atomic_load(&total_text), atomic_load(&total_lines),
         (double)(finish.tv_sec - start.tv_sec) + (double)(finish.tv_nsec - start.tv_nsec) / 1e9,
         seconds(usage.ru_utime) + seconds(usage.ru_stime));
  return 0;
}
