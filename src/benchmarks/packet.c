/* E7 packet processing: a producer creates packets and hands each to a consumer that touches
 * every byte, in one of three modes: plugin (a function in a separate shared library, given a
 * pointer, no copy), ipc (a listener process receiving each packet by UDP on loopback) and none
 * (the packet is made and released with no consumer: the noise floor). Each run has two phases.
 * Throughput: packets sent back to back (the listener works in parallel on the other core); wall
 * time, CPU time of both processes (getrusage), packets received and lost; the listener also sums
 * the sequence numbers it received, which must match when nothing was lost. Latency: one packet
 * at a time, timed in every mode alike from the moment it is produced until its consumer has
 * finished its checksum (CLOCK_MONOTONIC, which both processes share; the listener sends its
 * finishing time back), so inline and out-of-process consumers are timed the same way.
 *
 * usage: packet --help */
#include "bench.h"
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define HEADER                                                                                               \
    "sweep,mode,packets,packet_bytes,repeat,status,wall_ns,producer_cpu_ns,consumer_cpu_ns,received,lost,"   \
    "latency_ns_sum,latency_packets"
#define ACK_TIMEOUT_MS 1000 /* a packet lost in the latency phase is counted, not waited for */
#define MAX_LIST 32

uint64_t packet_consume(const unsigned char *packet, size_t n); /* libpacket_plugin.so */

/* seq_sum: sum of the sequence numbers received (each packet starts with its own), so the
 * producer can check what arrived without doing the consumer's work itself. */
struct report {
    long received;
    uint64_t seq_sum;
    uint64_t checksum;
    int64_t cpu_ns;
};

static int64_t cpu_ns(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (int64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL +
           (int64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL;
}

static uint64_t rng = 88172645463325252ULL;
static unsigned char *make_packet(size_t n, long seq)
{
    unsigned char *p = malloc(n);
    if (!p)
        bench_die("malloc");
    for (size_t i = 0; i < n; i++) {
        rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
        p[i] = (unsigned char)rng;
    }
    memcpy(p, &seq, sizeof seq < n ? sizeof seq : n);
    return p;
}

/* Listener: sums packet checksums until told to stop, drains the socket, reports. With ack >= 0
 * it also writes the time it finished each packet to ack (the latency phase). */
static void listen_loop(int sock, int ctl, int result, int ack, size_t size)
{
    unsigned char *buf = malloc(size);
    struct report r = {0, 0, 0, 0};
    struct pollfd fds[2] = {{sock, POLLIN, 0}, {ctl, POLLIN, 0}};
    int stopping = 0;
    for (;;) {
        if (poll(fds, 2, stopping ? 0 : -1) < 0 && errno != EINTR)
            _exit(2);
        ssize_t k = recv(sock, buf, size, MSG_DONTWAIT);
        if (k > 0) {
            long seq = 0;
            memcpy(&seq, buf, (size_t)k < sizeof seq ? (size_t)k : sizeof seq);
            r.checksum += packet_consume(buf, (size_t)k);
            if (ack >= 0) {
                int64_t done = bench_now_ns();
                if (write(ack, &done, sizeof done) != sizeof done)
                    _exit(2);
            }
            r.seq_sum += (uint64_t)seq;
            r.received++;
            continue;
        }
        if (stopping)
            break;
        if (fds[1].revents & POLLIN) {
            char c;
            if (read(ctl, &c, 1) <= 0 || c == 'S')
                stopping = 1;
        }
    }
    r.cpu_ns = cpu_ns();
    if (write(result, &r, sizeof r) != sizeof r)
        _exit(2);
    _exit(0);
}

struct listener {
    pid_t pid;
    int sock, ctl, res, ack;
    struct sockaddr_in addr;
};

/* A listener process on a fresh loopback UDP socket; with_ack: it reports each packet's finish. */
static struct listener start_listener(size_t size, int with_ack)
{
    struct listener l;
    int lsock = socket(AF_INET, SOCK_DGRAM, 0), rcvbuf = 16 << 20;
    l.sock = socket(AF_INET, SOCK_DGRAM, 0);
    setsockopt(lsock, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
    memset(&l.addr, 0, sizeof l.addr);
    l.addr.sin_family = AF_INET;
    l.addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof l.addr;
    if (l.sock < 0 || lsock < 0 || bind(lsock, (struct sockaddr *)&l.addr, sizeof l.addr) ||
        getsockname(lsock, (struct sockaddr *)&l.addr, &len))
        bench_die("bind");
    int ctl[2], res[2], ack[2] = {-1, -1};
    if (pipe(ctl) || pipe(res) || (with_ack && pipe(ack)))
        bench_die("pipe");
    l.pid = fork();
    if (l.pid < 0)
        bench_die("fork");
    if (l.pid == 0) {
        close(l.sock), close(ctl[1]), close(res[0]);
        if (with_ack)
            close(ack[0]);
        listen_loop(lsock, ctl[0], res[1], ack[1], size);
    }
    close(lsock), close(ctl[0]), close(res[1]);
    if (with_ack)
        close(ack[1]);
    l.ctl = ctl[1], l.res = res[0], l.ack = ack[0];
    return l;
}

static void send_packet(struct listener *l, const unsigned char *p, size_t size)
{
    while (sendto(l->sock, p, size, 0, (struct sockaddr *)&l->addr, sizeof l->addr) < 0)
        if (errno != ENOBUFS && errno != EAGAIN && errno != EINTR)
            bench_die("sendto");
}

static struct report stop_listener(struct listener *l)
{
    struct report r;
    if (write(l->ctl, "S", 1) != 1 || read(l->res, &r, sizeof r) != sizeof r)
        bench_die("listener");
    waitpid(l->pid, NULL, 0);
    close(l->sock), close(l->ctl), close(l->res);
    if (l->ack >= 0)
        close(l->ack);
    return r;
}

/* Latency phase: one packet at a time, produced -> consumer finished; returns packets timed. */
static long latency_phase(const char *mode, long packets, long size, int64_t *sum_ns)
{
    long timed = 0;
    *sum_ns = 0;
    if (!strcmp(mode, "ipc")) {
        struct listener l = start_listener((size_t)size, 1);
        for (long i = 0; i < packets; i++) {
            unsigned char *p = make_packet((size_t)size, i);
            int64_t t0 = bench_now_ns(), done;
            send_packet(&l, p, (size_t)size);
            struct pollfd fd = {l.ack, POLLIN, 0};
            if (poll(&fd, 1, ACK_TIMEOUT_MS) == 1 && read(l.ack, &done, sizeof done) == sizeof done) {
                *sum_ns += done - t0;
                timed++;
            }
            free(p);
        }
        stop_listener(&l);
        return timed;
    }
    uint64_t checksum = 0;
    for (long i = 0; i < packets; i++) {
        unsigned char *p = make_packet((size_t)size, i);
        int64_t t0 = bench_now_ns();
        if (!strcmp(mode, "plugin"))
            checksum += packet_consume(p, (size_t)size);
        else
            bench_clobber(p); /* nobody consumes: the cost of the two clock reads */
        *sum_ns += bench_now_ns() - t0;
        timed++;
        free(p);
    }
    bench_clobber(&checksum);
    return timed;
}

static void run(bench_csv *csv, const char *sweep, const char *mode, long packets, long size, long repeat)
{
    int64_t cpu0 = cpu_ns(), t0, t1;
    struct report r = {0, 0, 0, 0};
    const char *status = "ok";
    if (!strcmp(mode, "ipc")) {
        struct listener l = start_listener((size_t)size, 0);
        t0 = bench_now_ns();
        for (long i = 0; i < packets; i++) {
            unsigned char *p = make_packet((size_t)size, i);
            send_packet(&l, p, (size_t)size);
            free(p);
        }
        r = stop_listener(&l);
        t1 = bench_now_ns();
        /* Lost packets change the sum, so it is checked only when none was lost. */
        if (r.received == packets && r.seq_sum != (uint64_t)packets * (uint64_t)(packets - 1) / 2)
            status = "checksum_mismatch";
    } else {
        int plugin = !strcmp(mode, "plugin");
        t0 = bench_now_ns();
        for (long i = 0; i < packets; i++) {
            unsigned char *p = make_packet((size_t)size, i);
            if (plugin)
                r.checksum += packet_consume(p, (size_t)size);
            else
                bench_clobber(p); /* made and released, consumed by nobody */
            free(p);
        }
        t1 = bench_now_ns();
        r.received = plugin ? packets : 0;
    }
    int64_t producer = cpu_ns() - cpu0, latency_sum;
    long timed = latency_phase(mode, packets, size, &latency_sum);
    BENCH_ROW(csv, "%s,%s,%ld,%ld,%ld,%s,%lld,%lld,%lld,%ld,%ld,%lld,%ld\n", sweep, mode, packets, size,
              repeat, status, (long long)(t1 - t0), (long long)producer, (long long)r.cpu_ns, r.received,
              strcmp(mode, "ipc") ? 0 : packets - r.received, (long long)latency_sum, timed);
    bench_csv_flush(csv);
}

int main(int argc, char **argv)
{
    bench_list counts = {0}, sizes = {0};
    long count_size = 0, size_count = 0, repeats = 0;
    const bench_option options[] = {
        BENCH_INTEGERS("--counts", counts, 1, MAX_LIST, BENCH_REQUIRED, "packets per run of the count sweep"),
        BENCH_INTEGER("--count-size", count_size, 16, BENCH_REQUIRED, "packet size of the count sweep"),
        BENCH_INTEGERS("--sizes", sizes, 1, MAX_LIST, BENCH_REQUIRED, "packet sizes of the size sweep"),
        BENCH_INTEGER("--size-count", size_count, 1, BENCH_REQUIRED, "packets per run of the size sweep"),
        BENCH_INTEGER("--repeats", repeats, 1, BENCH_REQUIRED, "repeats of both sweeps"),
    };
    const char *out = bench_init(argc, argv, "packet", HEADER, options, "");
    int ncounts = counts.n, nsizes = sizes.n;
    for (int s = 0; s < nsizes; s++)
        if (sizes.v[s] < 16 || sizes.v[s] > 65000) {
            fprintf(stderr, "error: --sizes: 16 to 65000 bytes (one UDP datagram)\n");
            return 64;
        }
    bench_csv csv;
    bench_csv_open(&csv, out, HEADER);
    const char *modes[3] = {"none", "plugin", "ipc"};
    long total = (long)(ncounts + nsizes) * 3 * repeats, done = 0;
    double work_total = 0, work_done = 0;
    for (int c = 0; c < ncounts; c++)
        work_total += 3.0 * repeats * counts.v[c] * count_size;
    for (int s = 0; s < nsizes; s++)
        work_total += 3.0 * repeats * size_count * sizes.v[s];
    int64_t start = bench_now_ns();
    for (long rep = 1; rep <= repeats; rep++) {
        for (int c = 0; c < ncounts; c++)
            for (int m = 0; m < 3; m++) {
                work_done += (double)counts.v[c] * count_size;
                if (!bench_unit_begin()) {
                    done++;
                    continue;
                }
                run(&csv, "count", modes[m], counts.v[c], count_size, rep);
                bench_progress("packet", ++done, total, work_done, work_total, start);
            }
        for (int s = 0; s < nsizes; s++)
            for (int m = 0; m < 3; m++) {
                work_done += (double)size_count * sizes.v[s];
                if (!bench_unit_begin()) {
                    done++;
                    continue;
                }
                run(&csv, "size", modes[m], size_count, sizes.v[s], rep);
                bench_progress("packet", ++done, total, work_done, work_total, start);
            }
    }
    bench_csv_commit(&csv);
    return 0;
}
