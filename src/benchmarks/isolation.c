/* E6 memory isolation with two shared libraries: the parent calls library A, which writes random
 * strings into a pipe; the forked child calls library B, which reads and logs them. Both then
 * stay alive (printing 'ready PARENT CHILD') until SIGTERM, so their memory can be inspected.
 *
 * usage: isolation --strings N --sent FILE --log FILE | isolation --describe */
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
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--describe")) {
            printf("{\"benchmark\": \"isolation\", \"clock\": \"CLOCK_MONOTONIC\", \"timer_resolution_ns\": "
                   "%lld, "
                   "\"pointer_bytes\": %zu}\n",
                   (long long)bench_resolution_ns(CLOCK_MONOTONIC), sizeof(void *));
            return 0;
        } else if (!strcmp(argv[i], "--strings") && i + 1 < argc)
            count = bench_parse_long("--strings", argv[++i], 1);
        else if (!strcmp(argv[i], "--sent") && i + 1 < argc)
            sent_path = argv[++i];
        else if (!strcmp(argv[i], "--log") && i + 1 < argc)
            log_path = argv[++i];
        else
            count = 0, i = argc;
    }
    if (!count || !sent_path || !log_path || count > ISO_MAX_STRINGS) {
        fprintf(stderr, "usage: %s --strings N (at most %d) --sent FILE --log FILE | --describe\n", argv[0],
                ISO_MAX_STRINGS);
        return 64;
    }
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
