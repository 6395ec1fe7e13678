/* The ceiling for GPX reading: libexpat set up as GPXReader sets it up, doing nothing but counting
   start tags, over the files named (or, given `-`, the paths one per line on standard input). Like
   GPXReader, it uses namespaces, a hash salt drawn once (no getrandom per file), and hands a file
   of at most 16 MiB to expat whole in one final call (larger ones 64 KiB at a time): expat's cost
   then compares like with like (fed in 64 KiB pieces with a fresh salt per file, expat takes about
   10 % more instructions on memo-sized routes). Compiled by stash-bench (cc -O2) at run time;
   prints "<elements> <bytes> <wall seconds> <CPU seconds>". */
#include <expat.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void count_start(void *data, const XML_Char *name, const XML_Char **attributes) {
  (void)name;
  (void)attributes;
  ++*(unsigned long *)data;
}

static unsigned long elements = 0, bytes = 0;

#define WHOLE_LIMIT (16L << 20)
#define CHUNK (64 * 1024)

/* Reads up to `count` bytes at `offset`; -1 on an error. */
static ssize_t read_at(int fd, char *buffer, size_t count, off_t offset) {
  size_t done = 0;
  while (done < count) {
    ssize_t n = pread(fd, buffer + done, count - done, offset + (off_t)done);
    if (n < 0) return -1;
    if (n == 0) break;
    done += (size_t)n;
  }
  return (ssize_t)done;
}

/* Counts the start tags of one file; 0 when it parsed. */
static int count_file(const char *path, unsigned long salt) {
  static char *buffer = NULL;
  static size_t capacity = 0;
  int fd = open(path, O_RDONLY);
  if (fd < 0) { perror(path); return 2; }
  struct stat status;
  if (fstat(fd, &status) != 0) { perror(path); return 2; }
  XML_Parser parser = XML_ParserCreateNS(NULL, '\001');
  XML_SetHashSalt(parser, salt);
  XML_SetUserData(parser, &elements);
  XML_SetStartElementHandler(parser, count_start);
  int whole = status.st_size <= WHOLE_LIMIT;
  size_t piece = whole ? (size_t)(status.st_size > 0 ? status.st_size : 1) : CHUNK;
  if (piece > capacity) {
    free(buffer);
    buffer = malloc(piece);
    if (!buffer) { perror("malloc"); return 2; }
    capacity = piece;
  }
  for (off_t offset = 0;;) {
    ssize_t n = read_at(fd, buffer, piece, offset);
    if (n < 0) { perror(path); return 2; }
    offset += n;
    bytes += (unsigned long)n;
    int final = whole || (size_t)n < piece || offset >= status.st_size;
    if (XML_Parse(parser, buffer, (int)n, final) == XML_STATUS_ERROR) {
      fprintf(stderr, "%s: %s\n", path, XML_ErrorString(XML_GetErrorCode(parser)));
      return 1;
    }
    if (final) break;
  }
  XML_ParserFree(parser);
  close(fd);
  return 0;
}

int main(int argc, char **argv) {
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  /* One salt for the whole run, as GPXReader draws one per process. */
  unsigned long salt = (unsigned long)start.tv_nsec * 2654435761UL + 1;
  if (argc == 2 && strcmp(argv[1], "-") == 0) {
    /* The paths one per line on standard input: a folder's routes are more than argv holds. */
    char *line = NULL;
    size_t capacity = 0;
    ssize_t length;
    while ((length = getline(&line, &capacity, stdin)) > 0) {
      if (line[length - 1] == '\n') line[length - 1] = 0;
      if (!line[0]) continue;
      int status = count_file(line, salt);
      if (status) return status;
    }
    free(line);
  } else {
    for (int i = 1; i < argc; i++) {
      int status = count_file(argv[i], salt);
      if (status) return status;
    }
  }
  clock_gettime(CLOCK_MONOTONIC, &end);
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  printf("%lu %lu %.6f %.6f\n", elements, bytes,
         (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9,
         (double)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
             (double)(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6);
  return 0;
}
