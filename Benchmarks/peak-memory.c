/* Runs a command and writes its peak resident memory (kB) to a file: peak-memory OUT CMD ARGS...
   Why a helper: Linux carries the parent's resident size into a child's ru_maxrss across fork and
   exec, so a child of the large harness would report at least the harness's size. Forked from this
   small process instead, the figure is the command's own. Exits with the command's status. */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 3) { fprintf(stderr, "usage: peak-memory OUT CMD ARGS...\n"); return 2; }
  pid_t pid = fork();
  if (pid < 0) { perror("fork"); return 2; }
  if (pid == 0) { execvp(argv[2], argv + 2); perror(argv[2]); _exit(127); }
  int status;
  struct rusage usage;
  if (wait4(pid, &status, 0, &usage) < 0) { perror("wait4"); return 2; }
  FILE *out = fopen(argv[1], "w");
  if (!out) { perror(argv[1]); return 2; }
  fprintf(out, "%ld\n", usage.ru_maxrss);
  fclose(out);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
