/* The floor under `stash import` on this disk: the fewest system calls any copy makes that keeps
 * FORMAT.md §7's promises, and nothing else (no memo sets, no checks of a recording, no report).
 * For each memo of SOURCE (files grouped by the base before their last `_`), on THREADS threads,
 * its audio last: each file is read in 1 MiB pieces and hashed (XXH64), written under a temporary
 * name, given the source's times, fsynced, its cached pages dropped, read back and hashed again,
 * compared, and renamed without replacing anything; the folder is fsynced before each audio and
 * once at the end. Prints the bytes and files copied; exits 1 on any failure or mismatch.
 *
 *   import-floor SOURCE TARGET [THREADS]   (TARGET is made; THREADS defaults to 16)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PIECE (1 << 20)

static const char *source, *target;
static char **names;
static int name_count, *memo_start, memo_count, next_memo;
static long long bytes_copied;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void fail(const char *what, const char *path) {
  fprintf(stderr, "import-floor: %s: %s: ", what, path);
  perror(NULL);
  exit(1);
}

/* XXH64, seed 0, streamed. */
static const uint64_t P1 = 0x9E3779B185EBCA87ULL, P2 = 0xC2B2AE3D27D4EB4FULL,
                      P3 = 0x165667B19E3779F9ULL, P4 = 0x85EBCA77C2B2AE63ULL,
                      P5 = 0x27D4EB2F165667C5ULL;
typedef struct {
  uint64_t lane[4], count;
  unsigned char pending[32];
  size_t pending_count;
} hash_state;
static uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
static uint64_t round64(uint64_t a, uint64_t in) { return rotl(a + in * P2, 31) * P1; }
static uint64_t load64(const unsigned char *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}
static void hash_init(hash_state *s) {
  memset(s, 0, sizeof *s);
  s->lane[0] = P1 + P2;
  s->lane[1] = P2;
  s->lane[3] = -P1;
}
static void stripe(hash_state *s, const unsigned char *p) {
  for (int k = 0; k < 4; k++) s->lane[k] = round64(s->lane[k], load64(p + 8 * k));
}
static void hash_update(hash_state *s, const unsigned char *p, size_t n) {
  s->count += n;
  if (s->pending_count) {
    size_t take = 32 - s->pending_count < n ? 32 - s->pending_count : n;
    memcpy(s->pending + s->pending_count, p, take);
    s->pending_count += take;
    p += take;
    n -= take;
    if (s->pending_count < 32) return;
    stripe(s, s->pending);
    s->pending_count = 0;
  }
  for (; n >= 32; p += 32, n -= 32) stripe(s, p);
  memcpy(s->pending, p, n);
  s->pending_count = n;
}
static uint64_t hash_value(const hash_state *s) {
  uint64_t h;
  if (s->count >= 32) {
    h = rotl(s->lane[0], 1) + rotl(s->lane[1], 7) + rotl(s->lane[2], 12) + rotl(s->lane[3], 18);
    for (int k = 0; k < 4; k++) h = (h ^ round64(0, s->lane[k])) * P1 + P4;
  } else {
    h = P5;
  }
  h += s->count;
  const unsigned char *p = s->pending;
  size_t n = s->pending_count;
  for (; n >= 8; p += 8, n -= 8) h = rotl(h ^ round64(0, load64(p)), 27) * P1 + P4;
  if (n >= 4) {
    uint32_t w;
    memcpy(&w, p, 4);
    h = rotl(h ^ (uint64_t)w * P1, 23) * P2 + P3;
    p += 4;
    n -= 4;
  }
  for (; n > 0; p++, n--) h = rotl(h ^ *p * P5, 11) * P1;
  h ^= h >> 33;
  h *= P2;
  h ^= h >> 29;
  h *= P3;
  h ^= h >> 32;
  return h;
}

static void sync_folder(void) {
  int fd = open(target, O_RDONLY | O_DIRECTORY);
  if (fd < 0 || fsync(fd) != 0) fail("fsync", target);
  close(fd);
}

static void copy_file(const char *name, unsigned char *buffer) {
  char from[4096], temporary[4096], final[4096];
  snprintf(from, sizeof from, "%s/%s", source, name);
  snprintf(temporary, sizeof temporary, "%s/.%s.floor-tmp", target, name);
  snprintf(final, sizeof final, "%s/%s", target, name);
  int input = open(from, O_RDONLY);
  if (input < 0) fail("open", from);
  int output = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (output < 0) fail("create", temporary);
  hash_state written, back;
  hash_init(&written);
  hash_init(&back);
  ssize_t n;
  while ((n = read(input, buffer, PIECE)) > 0) {
    hash_update(&written, buffer, (size_t)n);
    if (write(output, buffer, (size_t)n) != n) fail("write", temporary);
  }
  if (n < 0) fail("read", from);
  struct stat info;
  if (fstat(input, &info) != 0) fail("fstat", from);
  struct timespec times[2] = {info.st_mtim, info.st_mtim};
  if (futimens(output, times) != 0) fail("futimens", temporary);
  if (fsync(output) != 0) fail("fsync", temporary);
  close(output);
  close(input);
  int again = open(temporary, O_RDONLY);
  if (again < 0) fail("open", temporary);
  posix_fadvise(again, 0, 0, POSIX_FADV_DONTNEED);
  while ((n = read(again, buffer, PIECE)) > 0) hash_update(&back, buffer, (size_t)n);
  if (n < 0) fail("read back", temporary);
  close(again);
  if (back.count != written.count || hash_value(&back) != hash_value(&written)) {
    fprintf(stderr, "import-floor: %s read back differs\n", temporary);
    exit(1);
  }
  if (renameat2(AT_FDCWD, temporary, AT_FDCWD, final, RENAME_NOREPLACE) != 0) fail("rename", final);
  pthread_mutex_lock(&lock);
  bytes_copied += (long long)written.count;
  pthread_mutex_unlock(&lock);
}

static void *worker(void *unused) {
  unsigned char *buffer = aligned_alloc(4096, PIECE);
  if (!buffer) fail("allocate", "buffer");
  for (;;) {
    pthread_mutex_lock(&lock);
    int memo = next_memo++;
    pthread_mutex_unlock(&lock);
    if (memo >= memo_count) break;
    int audio = -1;
    for (int i = memo_start[memo]; i < memo_start[memo + 1]; i++) {
      size_t length = strlen(names[i]);
      if (length > 10 && strcmp(names[i] + length - 10, "_audio.m4a") == 0) {
        audio = i;
        continue;
      }
      copy_file(names[i], buffer);
    }
    if (audio >= 0) {
      sync_folder();
      copy_file(names[audio], buffer);
    }
  }
  free(buffer);
  return unused;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: import-floor SOURCE TARGET [THREADS]\n");
    return 2;
  }
  source = argv[1];
  target = argv[2];
  int threads = argc > 3 ? atoi(argv[3]) : 16;
  if (threads < 1 || threads > 256) threads = 16;
  if (mkdir(target, 0700) != 0) fail("mkdir", target);
  DIR *folder = opendir(source);
  if (!folder) fail("opendir", source);
  int capacity = 1024;
  names = malloc(sizeof *names * (size_t)capacity);
  struct dirent *entry;
  while ((entry = readdir(folder))) {
    if (entry->d_name[0] == '.' || entry->d_type != DT_REG || !strrchr(entry->d_name, '_')) continue;
    if (name_count == capacity) names = realloc(names, sizeof *names * (size_t)(capacity *= 2));
    names[name_count++] = strdup(entry->d_name);
  }
  closedir(folder);
  qsort(names, (size_t)name_count, sizeof *names, by_name);
  memo_start = malloc(sizeof *memo_start * (size_t)(name_count + 1));
  for (int i = 0; i < name_count; i++) {
    size_t base = (size_t)(strrchr(names[i], '_') - names[i]);
    if (i == 0 || (size_t)(strrchr(names[i - 1], '_') - names[i - 1]) != base ||
        strncmp(names[i], names[i - 1], base) != 0)
      memo_start[memo_count++] = i;
  }
  memo_start[memo_count] = name_count;
  pthread_t started[256];
  for (int i = 0; i < threads; i++) pthread_create(&started[i], NULL, worker, NULL);
  for (int i = 0; i < threads; i++) pthread_join(started[i], NULL);
  sync_folder();
  printf("bytes=%lld files=%d memos=%d\n", bytes_copied, name_count, memo_count);
  return 0;
}
