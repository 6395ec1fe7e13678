/* The ceiling for GPX reading: libexpat with namespaces, fed 64 KiB at a time, doing nothing but
   counting start tags, over the files named (or, given `-`, the paths one per line on standard
   input). Compiled by stash-bench (cc -O2) at run time; prints
   "<elements> <bytes> <wall seconds> <CPU seconds>". */
#include <expat.h>
#include <fcntl.h>
#include <sys/resource.h>
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

/* Counts the start tags of one file; 0 when it parsed. */
static int count_file(const char *path) {
  static char buffer[64 * 1024];
  int fd = open(path, O_RDONLY);
  if (fd < 0) { perror(path); return 2; }
  XML_Parser parser = XML_ParserCreateNS(NULL, '\001');
  XML_SetUserData(parser, &elements);
  XML_SetStartElementHandler(parser, count_start);
  for (;;) {
    ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0) { perror(path); return 2; }
    bytes += (unsigned long)n;
    if (XML_Parse(parser, buffer, (int)n, n == 0) == XML_STATUS_ERROR) {
      fprintf(stderr, "%s: %s\n", path, XML_ErrorString(XML_GetErrorCode(parser)));
      return 1;
    }
    if (n == 0) break;
  }
  XML_ParserFree(parser);
  close(fd);
  return 0;
}

int main(int argc, char **argv) {
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  if (argc == 2 && strcmp(argv[1], "-") == 0) {
    /* The paths one per line on standard input: a folder's routes are more than argv holds. */
    char *line = NULL;
    size_t capacity = 0;
    ssize_t length;
    while ((length = getline(&line, &capacity, stdin)) > 0) {
      if (line[length - 1] == '\n') line[length - 1] = 0;
      if (!line[0]) continue;
      int status = count_file(line);
      if (status) return status;
    }
    free(line);
  } else {
    for (int i = 1; i < argc; i++) {
      int status = count_file(argv[i]);
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
