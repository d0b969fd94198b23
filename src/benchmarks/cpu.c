/* E3 CPU-bound work: four workloads timed as process CPU time and wall time.
 *
 * Every result is folded into a checksum that is written out, so no loop can be removed; the
 * iteration count passes through an empty asm so the compiler cannot hoist a workload out of the
 * trial loop. int and array are deterministic: their checksum must be the same in every trial.
 *
 * usage: cpu --help */
#include "bench.h"
#include <math.h>

#define HEADER "trial,workload,iterations,status,cpu_ns,wall_ns,checksum"

static long opaque(long n)
{
    __asm__ volatile("" : "+r"(n));
    return n;
}

static double work_math(long n)
{
    double acc = 0;
    for (long i = 1; i <= n; i++) {
        double x = (double)i;
        acc += sin(x) * cos(x) * tan(x) * sqrt(x) * log(x);
    }
    return acc;
}

static double work_int(long n)
{
    uint64_t acc = 1;
    for (long i = 1; i <= n; i++)
        acc = (acc * 2654435761u + (uint64_t)i) / 3 % 1000000007u;
    return (double)acc;
}

static double work_float(long n)
{
    double acc = 1.0;
    for (long i = 1; i <= n; i++)
        acc = acc / 1.000000119 * 1.000000107 + 1e-9;
    return acc;
}

static double work_array(long n)
{
    int *a = malloc((size_t)n * sizeof *a);
    if (!a)
        return NAN;
    for (long i = 0; i < n; i++)
        a[i] = (int)(i & 0x3fffffff);
    bench_clobber(a);
    for (long i = 0; i < n; i++)
        a[i] *= 2;
    bench_clobber(a);
    for (long i = 0; i < n; i++)
        a[i] /= 2;
    bench_clobber(a);
    int64_t sum = 0;
    for (long i = 0; i < n; i++)
        sum += a[i];
    free(a);
    return (double)sum;
}

static const struct {
    const char *name;
    double (*fn)(long);
    int deterministic;
} WORKLOADS[] = {
    {"math", work_math, 0}, {"int", work_int, 1}, {"float", work_float, 1}, {"array", work_array, 1}};
#define NWORK 4

int main(int argc, char **argv)
{
    const char *wanted = NULL;
    long trials = 0, iterations = 0, array_size = 0;
    const bench_option options[] = {
        BENCH_INTEGER("--trials", trials, 1, BENCH_REQUIRED, "trials, each running every workload once"),
        BENCH_INTEGER("--iterations", iterations, 1, BENCH_REQUIRED, "iterations of math, int and float"),
        BENCH_INTEGER("--array-size", array_size, 1, BENCH_REQUIRED, "ints in the array workload"),
        BENCH_TEXT("--workloads", wanted, BENCH_DEFAULT("math,int,float,array"), "the workloads to run"),
    };
    char extra[128];
    snprintf(extra, sizeof extra,
             ", \"cpu_clock\": \"CLOCK_PROCESS_CPUTIME_ID\", \"cpu_timer_resolution_ns\": %lld",
             (long long)bench_resolution_ns(CLOCK_PROCESS_CPUTIME_ID));
    const char *out = bench_init(argc, argv, "cpu", HEADER, options, extra);
    int use[NWORK] = {0}, nuse = 0;
    for (int w = 0; w < NWORK; w++) {
        char padded[128];
        snprintf(padded, sizeof padded, ",%s,", wanted);
        char key[32];
        snprintf(key, sizeof key, ",%s,", WORKLOADS[w].name);
        nuse += use[w] = strstr(padded, key) != NULL;
    }
    if (!nuse) {
        fprintf(stderr, "error: --workloads names none of math,int,float,array\n");
        return 64;
    }

    bench_csv csv;
    bench_csv_open(&csv, out, HEADER);
    double first[NWORK];
    int have_first[NWORK] = {0};
    long total = trials * nuse, done = 0, bad = 0;
    int64_t start = bench_now_ns();
    /* Workloads interleave within each trial, so slow drift affects all of them alike. */
    for (long t = 1; t <= trials; t++) {
        for (int w = 0; w < NWORK; w++) {
            if (!use[w])
                continue;
            if (!bench_unit_begin()) {
                done++;
                continue;
            }
            long n = opaque(w == 3 ? array_size : iterations);
            int64_t c0 = bench_clock_ns(CLOCK_PROCESS_CPUTIME_ID), w0 = bench_now_ns();
            double sum = WORKLOADS[w].fn(n);
            int64_t c1 = bench_clock_ns(CLOCK_PROCESS_CPUTIME_ID), w1 = bench_now_ns();
            const char *status = "ok";
            if (isnan(sum))
                status = "alloc_failed";
            else if (!have_first[w]) /* the first trial this process ran is the reference */
                first[w] = sum, have_first[w] = 1;
            else if (WORKLOADS[w].deterministic && sum != first[w])
                status = "checksum_mismatch", bad++;
            BENCH_ROW(&csv, "%ld,%s,%ld,%s,%lld,%lld,%.17g\n", t, WORKLOADS[w].name, n, status,
                      (long long)(c1 - c0), (long long)(w1 - w0), sum);
            bench_csv_flush(&csv);
            done++;
            bench_progress("cpu", done, total, (double)done, (double)total, start);
        }
    }
    if (bad) {
        fprintf(stderr, "error: checksum differs between trials in %ld cases\n", bad);
        fclose(csv.f);
        return 3;
    }
    bench_csv_commit(&csv);
    return 0;
}
