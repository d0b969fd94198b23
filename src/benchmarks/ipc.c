/* E8 IPC round trip by message size: a client sends a message and waits for a reply of the same
 * size from a server process, over a pipe pair and over a Unix-domain socket pair. Each sample
 * times many round trips and reports the mean; the reply must equal what was sent.
 *
 * usage: ipc --help */
#include "bench.h"
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define HEADER "transport,message_bytes,sample,round_trips,status,roundtrip_ns"
#define MAX_SIZES 32

static int xfer(int fd, void *buf, size_t n, int writing)
{
    char *p = buf;
    while (n) {
        ssize_t k = writing ? write(fd, p, n) : read(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        p += k, n -= (size_t)k;
    }
    return 0;
}

/* Echo server: reads a 4-byte size, then echoes messages of that size until a size of 0. */
static void serve(int in, int out)
{
    static unsigned char buf[1 << 20];
    uint32_t size;
    long trips;
    while (xfer(in, &size, sizeof size, 0) == 0 && size && xfer(in, &trips, sizeof trips, 0) == 0) {
        for (long k = 0; k < trips; k++)
            if (xfer(in, buf, size, 0) || xfer(out, buf, size, 1))
                _exit(2);
    }
    _exit(0);
}

int main(int argc, char **argv)
{
    bench_list sizes = {0};
    long samples = 0, trips = 0;
    const bench_option options[] = {
        BENCH_INTEGERS("--sizes", sizes, 1, MAX_SIZES, BENCH_REQUIRED, "message sizes (bytes)"),
        BENCH_INTEGER("--samples", samples, 1, BENCH_REQUIRED, "samples of each size and transport"),
        BENCH_INTEGER("--round-trips", trips, 1, BENCH_REQUIRED, "round trips timed together in a sample"),
    };
    const char *out = bench_init(argc, argv, "ipc", HEADER, options, "");
    int nsizes = sizes.n;
    for (int s = 0; s < nsizes; s++)
        if (sizes.v[s] > (1 << 20)) {
            fprintf(stderr, "error: --sizes: at most 1048576 bytes\n");
            return 64;
        }
    signal(SIGPIPE, SIG_IGN);
    bench_csv csv;
    bench_csv_open(&csv, out, HEADER);
    unsigned char *msg = malloc(1 << 20), *reply = malloc(1 << 20);
    if (!msg || !reply)
        bench_die("malloc");
    long total = 2L * nsizes * samples, done = 0;
    int64_t start = bench_now_ns();
    const char *names[2] = {"pipe", "unix_socket"};
    int bad = 0;
    for (int t = 0; t < 2; t++) {
        int to_server[2], to_client[2];
        if (t == 0) {
            if (pipe(to_server) || pipe(to_client))
                bench_die("pipe");
        } else {
            int sv[2];
            if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
                bench_die("socketpair");
            to_server[0] = sv[1], to_server[1] = sv[0], to_client[0] = sv[0], to_client[1] = sv[1];
        }
        pid_t pid = fork();
        if (pid < 0)
            bench_die("fork");
        if (pid == 0) {
            if (t == 0)
                close(to_server[1]), close(to_client[0]);
            else
                close(to_server[1]);
            serve(to_server[0], to_client[1]);
        }
        int wfd = to_server[1], rfd = to_client[0];
        if (t == 0)
            close(to_server[0]), close(to_client[1]);
        else
            close(to_server[0]);
        for (int s = 0; s < nsizes; s++) {
            uint32_t size = (uint32_t)sizes.v[s];
            for (long k = 0; k < (long)size; k++)
                msg[k] = (unsigned char)(k * 31 + s + t);
            for (long sample = 1; sample <= samples; sample++) {
                if (!bench_unit_begin()) {
                    done++;
                    continue;
                }
                if (xfer(wfd, &size, sizeof size, 1) || xfer(wfd, &trips, sizeof trips, 1))
                    bench_die("ipc");
                int64_t t0 = bench_now_ns();
                for (long k = 0; k < trips; k++)
                    if (xfer(wfd, msg, size, 1) || xfer(rfd, reply, size, 0))
                        bench_die("ipc round trip");
                int64_t t1 = bench_now_ns();
                int ok = memcmp(msg, reply, size) == 0;
                bad += !ok;
                BENCH_ROW(&csv, "%s,%u,%ld,%ld,%s,%.1f\n", names[t], size, sample, trips,
                          ok ? "ok" : "reply_mismatch", (double)(t1 - t0) / (double)trips);
                bench_csv_flush(&csv);
                done++;
                bench_progress("ipc", done, total, (double)done, (double)total, start);
            }
        }
        uint32_t zero = 0;
        xfer(wfd, &zero, sizeof zero, 1);
        close(wfd), close(rfd);
        waitpid(pid, NULL, 0);
    }
    if (bad) {
        fprintf(stderr, "error: %d samples got a reply that differs from the message\n", bad);
        fclose(csv.f);
        return 3;
    }
    bench_csv_commit(&csv);
    return 0;
}
