/* MPRIS Seek latency at the simulated device (issue 19): the client half of mpris-seek.py.
 *
 * The browser plays a memo that is silent for its first 30 s and a tone after, on ALSA's file
 * PCM paced to real time, so every frame handed to the device lands in RAW as it is handed. Each
 * trial seeks back to the start (silence), lets the device fill with silence, then notes the
 * monotonic time and the file's length, calls Player.Seek(+30 s) on the session bus and watches
 * what is appended: the latency is the time until the first frame of tone (a float sample above
 * 0.05) is in the file. One JSON line per trial, then a summary.
 *
 * usage: mpris-seek BUS-NAME RAW TRIALS   (the bus is $DBUS_SESSION_BUS_ADDRESS)
 * build: cc -O2 -o mpris-seek mpris-seek.c -lsystemd */
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <systemd/sd-bus.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static off_t size_of(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? st.st_size : 0;
}

static int seek(sd_bus *bus, const char *name, int64_t offset) {
  sd_bus_error error = SD_BUS_ERROR_NULL;
  int r = sd_bus_call_method(bus, name, "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player", "Seek",
                             &error, NULL, "x", offset);
  if (r < 0) fprintf(stderr, "mpris-seek: Seek failed: %s\n", error.message ? error.message : "?");
  sd_bus_error_free(&error);
  return r;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: mpris-seek BUS-NAME RAW TRIALS\n");
    return 2;
  }
  const char *name = argv[1], *raw = argv[2];
  int trials = atoi(argv[3]);
  sd_bus *bus = NULL;
  if (sd_bus_open_user(&bus) < 0) {
    fprintf(stderr, "mpris-seek: no session bus\n");
    return 1;
  }
  int fd = open(raw, O_RDONLY);
  if (fd < 0) {
    perror(raw);
    return 1;
  }
  double *latency = calloc(trials, sizeof *latency);
  int heard = 0;
  for (int i = 0; i < trials; i++) {
    if (seek(bus, name, -1000000000LL) < 0) return 1;
    usleep(400000); /* the ring and the device hold silence again */
    off_t at = size_of(raw) & ~(off_t)3;
    double t0 = now();
    if (seek(bus, name, 30000000LL) < 0) return 1;
    double found = -1;
    float samples[4096];
    while (found < 0 && now() - t0 < 2) {
      ssize_t n = pread(fd, samples, sizeof samples, at);
      if (n < (ssize_t)sizeof(float)) {
        usleep(200);
        continue;
      }
      size_t count = (size_t)n / sizeof(float);
      for (size_t k = 0; k < count; k++)
        if (fabsf(samples[k]) > 0.05f) {
          found = now() - t0;
          break;
        }
      at += (off_t)(count * sizeof(float));
    }
    if (found >= 0) latency[heard++] = found * 1000;
    printf("{\"trial\": %d, \"latency_ms\": %.2f}\n", i, found * 1000);
    fflush(stdout);
  }
  qsort(latency, heard, sizeof *latency, cmp);
  if (heard == 0) {
    printf("{\"heard\": 0, \"trials\": %d}\n", trials);
    return 1;
  }
  printf("{\"heard\": %d, \"trials\": %d, \"median_ms\": %.2f, \"p90_ms\": %.2f, \"max_ms\": %.2f}\n", heard,
         trials, latency[heard / 2], latency[(heard * 9) / 10 < heard ? (heard * 9) / 10 : heard - 1],
         latency[heard - 1]);
  return 0;
}
