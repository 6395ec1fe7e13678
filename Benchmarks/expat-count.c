/* The ceiling for GPX reading: libexpat with namespaces, fed 64 KiB at a time, doing nothing but
   counting start tags. Compiled by stash-bench (cc -O2) at run time; prints
   "<elements> <bytes> <wall seconds> <CPU seconds>". */
#include <expat.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static void count_start(void *data, const XML_Char *name, const XML_Char **attributes) {
  (void)name;
  (void)attributes;
  ++*(unsigned long *)data;
}

int main(int argc, char **argv) {
  static char buffer[64 * 1024];
  unsigned long elements = 0, bytes = 0;
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (int i = 1; i < argc; i++) {
    int fd = open(argv[i], O_RDONLY);
    if (fd < 0) { perror(argv[i]); return 2; }
    XML_Parser parser = XML_ParserCreateNS(NULL, '\001');
    XML_SetUserData(parser, &elements);
    XML_SetStartElementHandler(parser, count_start);
    for (;;) {
      ssize_t n = read(fd, buffer, sizeof buffer);
      if (n < 0) { perror(argv[i]); return 2; }
      bytes += (unsigned long)n;
      if (XML_Parse(parser, buffer, (int)n, n == 0) == XML_STATUS_ERROR) {
        fprintf(stderr, "%s: %s\n", argv[i], XML_ErrorString(XML_GetErrorCode(parser)));
        return 1;
      }
      if (n == 0) break;
    }
    XML_ParserFree(parser);
    close(fd);
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
