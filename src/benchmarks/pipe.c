/* E4 pipe communication between a parent and a forked child.
 *
 * Per trial: the parent times its write of a random message into the pipe; then it tells the
 * child, through a second pipe, that the message is there; the child starts its timer before the
 * read call (the original algorithm started it after the read, timing nothing) and stops it when
 * the whole message has arrived. The child sends back its read time and a checksum of what it
 * read, which must match the parent's. Because one 1 KiB transfer is close to the timer's
 * resolution, each trial also times a batch of round trips (parent writes, child echoes) and
 * reports the mean per round trip. Trial 1 is kept and flagged as warm-up.
 *
 * usage: pipe --help */
#include "bench.h"
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#define HEADER "trial,warmup,message_bytes,batch,status,write_ns,read_ns,write_plus_read_ns,roundtrip_ns"

struct reply {
    int64_t read_ns;
    uint64_t checksum;
};

static void write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            bench_die("pipe write");
        }
        p += k, n -= (size_t)k;
    }
}

static int read_all(int fd, void *buf, size_t n)
{
    char *p = buf;
    while (n) {
        ssize_t k = read(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        p += k, n -= (size_t)k;
    }
    return 0;
}

static uint64_t checksum(const unsigned char *p, size_t n)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ULL;
    return h;
}

static uint64_t rng_state;
static void random_message(unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
        p[i] = (unsigned char)rng_state;
    }
}

/* Child: waits for a command byte: 'R' timed read of one message, 'E' echo batch, 'Q' quit. */
static void child(int data_in, int ctl_in, int back_out, size_t size, long batch)
{
    unsigned char *buf = malloc(size);
    char cmd;
    if (!buf)
        _exit(2);
    while (read_all(ctl_in, &cmd, 1) == 0 && cmd != 'Q') {
        if (cmd == 'R') {
            int64_t t0 = bench_now_ns();
            if (read_all(data_in, buf, size))
                _exit(2);
            int64_t t1 = bench_now_ns();
            struct reply r = {t1 - t0, checksum(buf, size)};
            write_all(back_out, &r, sizeof r);
        } else {
            for (long k = 0; k < batch; k++) {
                if (read_all(data_in, buf, size))
                    _exit(2);
                write_all(back_out, buf, size);
            }
        }
    }
    _exit(0);
}

int main(int argc, char **argv)
{
    long trials = 0, size = 0, batch = 0;
    const bench_option options[] = {
        BENCH_INTEGER("--trials", trials, 1, BENCH_REQUIRED, "trials; the first a process runs is flagged"),
        BENCH_INTEGER("--size", size, 1, BENCH_REQUIRED, "message size (bytes)"),
        BENCH_INTEGER("--batch", batch, 1, BENCH_REQUIRED, "round trips per trial for the batched latency"),
    };
    const char *out = bench_init(argc, argv, "pipe", HEADER, options, "");
    if (size > 65536) {
        /* A larger message could fill the pipe before the child reads: the write would block. */
        fprintf(stderr, "error: --size must be at most 65536 bytes (one pipe buffer)\n");
        return 64;
    }
    int data[2], ctl[2], back[2];
    if (pipe(data) || pipe(ctl) || pipe(back))
        bench_die("pipe");
    signal(SIGPIPE, SIG_IGN);
    pid_t pid = fork();
    if (pid < 0)
        bench_die("fork");
    if (pid == 0) {
        close(data[1]), close(ctl[1]), close(back[0]);
        child(data[0], ctl[0], back[1], (size_t)size, batch);
    }
    close(data[0]), close(ctl[0]), close(back[1]);

    unsigned char *msg = malloc((size_t)size), *echo = malloc((size_t)size);
    if (!msg || !echo)
        bench_die("malloc");
    rng_state = (uint64_t)bench_now_ns() | 1;
    bench_csv csv;
    bench_csv_open(&csv, out, HEADER);
    int64_t start = bench_now_ns();
    int failed = 0;
    for (long t = 1; t <= trials && !failed; t++) {
        if (!bench_unit_begin())
            continue;
        random_message(msg, (size_t)size);
        int64_t w0 = bench_now_ns();
        write_all(data[1], msg, (size_t)size);
        int64_t w1 = bench_now_ns();
        write_all(ctl[1], "R", 1);
        struct reply r;
        if (read_all(back[0], &r, sizeof r)) {
            fprintf(stderr, "error: the child process ended during trial %ld\n", t);
            failed = 1;
            break;
        }
        const char *status = r.checksum == checksum(msg, (size_t)size) ? "ok" : "checksum_mismatch";
        failed = status[0] != 'o';

        write_all(ctl[1], "E", 1);
        int64_t e0 = bench_now_ns();
        for (long k = 0; k < batch; k++) {
            write_all(data[1], msg, (size_t)size);
            if (read_all(back[0], echo, (size_t)size)) {
                fprintf(stderr, "error: the child process ended during trial %ld\n", t);
                failed = 1;
                break;
            }
        }
        int64_t e1 = bench_now_ns();
        if (!failed && memcmp(echo, msg, (size_t)size) != 0)
            status = "checksum_mismatch", failed = 1;
        BENCH_ROW(&csv, "%ld,%d,%ld,%ld,%s,%lld,%lld,%lld,%.1f\n", t, bench_first_unit(), size, batch, status,
                  (long long)(w1 - w0), (long long)r.read_ns, (long long)(w1 - w0 + r.read_ns),
                  (double)(e1 - e0) / (double)batch);
        bench_csv_flush(&csv);
        bench_progress("pipe", t, trials, (double)t, (double)trials, start);
    }
    write_all(ctl[1], "Q", 1);
    close(ctl[1]), close(data[1]);
    int st = 0;
    waitpid(pid, &st, 0);
    if (failed || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "error: pipe run failed (child status %d)\n", st);
        fclose(csv.f);
        return 3;
    }
    bench_csv_commit(&csv);
    return 0;
}
