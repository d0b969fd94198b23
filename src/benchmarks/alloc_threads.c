/* E9 allocation under threads: each of T worker threads allocates and frees a 48-byte object in a
 * loop for a fixed time. Allocations go in batches of 64 (all allocated, each written, all freed),
 * so each batch's two timings give the mean latency of an allocation and of a release without a
 * clock read around every call. One operation is one allocation and its release.
 *
 * usage: alloc_threads --help */
#include "bench.h"
#include <pthread.h>
#include <unistd.h>

#define HEADER "threads,trial,status,duration_ns,operations,throughput_ops_per_s,alloc_ns,free_ns,cores"
#define OBJECT_BYTES 48
#define BATCH 64
#define MAX_LIST 16

struct worker {
    pthread_t tid;
    int64_t deadline;
    long ops;
    int64_t alloc_ns, free_ns;
    int failed;
};

static void *work(void *arg)
{
    struct worker *w = arg;
    void *objs[BATCH];
    while (bench_now_ns() < w->deadline) {
        int64_t t0 = bench_now_ns();
        for (int i = 0; i < BATCH; i++)
            objs[i] = malloc(OBJECT_BYTES);
        int64_t t1 = bench_now_ns();
        for (int i = 0; i < BATCH; i++) {
            if (!objs[i]) {
                w->failed = 1;
                return NULL;
            }
            ((volatile unsigned char *)objs[i])[0] = (unsigned char)i; /* the object is really used */
        }
        int64_t t2 = bench_now_ns();
        for (int i = 0; i < BATCH; i++)
            free(objs[i]);
        int64_t t3 = bench_now_ns();
        w->alloc_ns += t1 - t0;
        w->free_ns += t3 - t2;
        w->ops += BATCH;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    bench_list threads = {0};
    long trials = 0, millis = 0;
    const bench_option options[] = {
        BENCH_INTEGERS("--threads", threads, 1, MAX_LIST, BENCH_REQUIRED, "worker threads of each run"),
        BENCH_INTEGER("--millis", millis, 1, BENCH_REQUIRED, "how long each run allocates (ms)"),
        BENCH_INTEGER("--trials", trials, 1, BENCH_REQUIRED, "runs of each thread count"),
    };
    char extra[64];
    snprintf(extra, sizeof extra, ", \"cores\": %ld", sysconf(_SC_NPROCESSORS_ONLN));
    const char *out = bench_init(argc, argv, "alloc_threads", HEADER, options, extra);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    bench_csv csv;
    bench_csv_open(&csv, out, HEADER);
    long total = threads.n * trials, done = 0;
    int64_t start = bench_now_ns();
    for (int k = 0; k < threads.n; k++) {
        for (long t = 1; t <= trials; t++) {
            if (!bench_unit_begin()) {
                done++;
                continue;
            }
            long n = threads.v[k];
            struct worker *w = calloc((size_t)n, sizeof *w);
            if (!w)
                bench_die("calloc");
            int64_t t0 = bench_now_ns(), deadline = t0 + millis * 1000000LL;
            for (long i = 0; i < n; i++) {
                w[i].deadline = deadline;
                if (pthread_create(&w[i].tid, NULL, work, &w[i]))
                    bench_die("pthread_create");
            }
            long ops = 0, failed = 0;
            int64_t a = 0, f = 0;
            for (long i = 0; i < n; i++) {
                pthread_join(w[i].tid, NULL);
                ops += w[i].ops, a += w[i].alloc_ns, f += w[i].free_ns, failed += w[i].failed;
            }
            int64_t t1 = bench_now_ns();
            BENCH_ROW(&csv, "%ld,%ld,%s,%lld,%ld,%.1f,%.2f,%.2f,%ld\n", n, t, failed ? "alloc_failed" : "ok",
                      (long long)(t1 - t0), ops, (double)ops * 1e9 / (double)(t1 - t0),
                      ops ? (double)a / (double)ops : 0.0, ops ? (double)f / (double)ops : 0.0, cores);
            bench_csv_flush(&csv);
            free(w);
            done++;
            bench_progress("alloc_threads", done, total, (double)done, (double)total, start);
        }
    }
    bench_csv_commit(&csv);
    return 0;
}
