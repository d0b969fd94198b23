/* E6 memory isolation with two shared libraries: the parent calls library A, which writes random
 * strings into a pipe; the forked child calls library B, which reads and logs them. Both then
 * stay alive (printing 'ready PARENT CHILD') until SIGTERM, so their memory can be inspected.
 *
 * usage: isolation --help */
#include "bench.h"
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "isolation.h"

static volatile sig_atomic_t stop;
static void on_term(int sig)
{
    (void)sig;
    stop = 1;
}

int main(int argc, char **argv)
{
    const char *sent_path = NULL, *log_path = NULL;
    long count = 0;
    const bench_option options[] = {
        BENCH_INTEGER("--strings", count, 1, BENCH_REQUIRED, "strings library A sends (at most 1024)"),
        BENCH_FILE("--sent", sent_path, BENCH_REQUIRED, "where the strings sent are listed"),
        BENCH_FILE("--log", log_path, BENCH_REQUIRED, "both processes' log"),
    };
    bench_init(argc, argv, "isolation", NULL, options, "");
    if (count > ISO_MAX_STRINGS)
        bench_usage_error("--strings: at most %d", ISO_MAX_STRINGS);
    struct sigaction sa = {0};
    sa.sa_handler = on_term;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);

    FILE *log = fopen(log_path, "w");
    if (!log)
        bench_die(log_path);
    setvbuf(log, NULL, _IOLBF, 0);
    int fds[2], ready[2];
    if (pipe(fds) || pipe(ready))
        bench_die("pipe");
    pid_t child = fork();
    if (child < 0)
        bench_die("fork");
    if (child == 0) {
        close(fds[1]), close(ready[0]);
        int n = iso_b_receive(fds[0], log);
        fprintf(log, "child: received %d strings, waiting\n", n);
        if (write(ready[1], "r", 1) != 1)
            _exit(2);
        while (!stop)
            pause();
        _exit(0);
    }
    close(fds[0]), close(ready[1]);
    FILE *sent = fopen(sent_path, "w");
    if (!sent || iso_a_send(fds[1], (int)count, sent, log) != 0)
        bench_die("sending strings");
    fclose(sent);
    close(fds[1]); /* end of data: the child's read loop stops */
    char r;
    if (read(ready[0], &r, 1) != 1)
        bench_die("waiting for the child");
    fprintf(log, "parent: sent %ld strings, waiting\n", count);
    printf("ready %d %d\n", (int)getpid(), (int)child);
    fflush(stdout);
    while (!stop)
        pause();
    kill(child, SIGTERM);
    waitpid(child, NULL, 0);
    return 0;
}
