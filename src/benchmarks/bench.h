/* Shared timing, CSV and progress helpers for every benchmark (read this once).
 *
 * Timing: clock_gettime in nanoseconds. CSV: rows go to PATH.partial, flushed
 * after every row so a crash keeps what was measured; bench_csv_commit renames
 * the file into place, so PATH exists only when the run finished. Progress:
 * one line per trial on stderr with elapsed time and an estimate of the rest. */
#ifndef C18N_BENCH_H
#define C18N_BENCH_H

/* CHERI rules for this tree: under purecap a pointer is a 16-byte capability, so no inline asm
 * takes a pointer operand and pointers become integers only through uintptr_t.
 * Feature macros: glibc hides POSIX and BSD names under -std=c11 unless _DEFAULT_SOURCE is set;
 * FreeBSD (CheriBSD) shows them by default, and _POSIX_C_SOURCE there would hide the BSD
 * extensions (MSG_DONTWAIT, INADDR_LOOPBACK, _SC_NPROCESSORS_ONLN), so nothing is set there. */
#if !defined(__FreeBSD__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE
#endif
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline int64_t bench_clock_ns(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static inline int64_t bench_now_ns(void)
{
    return bench_clock_ns(CLOCK_MONOTONIC);
}

static inline int64_t bench_resolution_ns(clockid_t clock)
{
    struct timespec ts;
    clock_getres(clock, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Keeps the compiler from assuming anything about memory behind p: p escapes through a volatile
 * store, and the barrier (no operands, so CHERI-safe) makes every escaped object count as read. */
static void *volatile bench_sink;
static inline void bench_clobber(void *p)
{
    bench_sink = p;
    __asm__ volatile("" : : : "memory");
}

/* --describe: the raw CSV's columns and the program's options, as JSON (the one place they are
 * written: the Python side reads the columns from the file's header and checks its parameters
 * against the options), with the clock and its resolution; extra: more fields (",\"k\": v"). */
static inline void bench_describe(const char *name, const char *header, const char *options,
                                  const char *extra)
{
    printf("{\"benchmark\": \"%s\", \"columns\": \"started_unix_ns,%s\", \"options\": \"%s\", "
           "\"clock\": \"CLOCK_MONOTONIC\", \"timer_resolution_ns\": %lld, \"pointer_bytes\": %zu%s}\n",
           name, header, options, (long long)bench_resolution_ns(CLOCK_MONOTONIC), sizeof(void *), extra);
}

static inline _Noreturn void bench_die(const char *what)
{
    fprintf(stderr, "error: %s: %s\n", what, errno ? strerror(errno) : "failed");
    exit(2);
}

typedef struct {
    FILE *f;
    char final_path[4096];
    char partial_path[4160];
} bench_csv;

/* Units and windows: each raw row is one unit, numbered in the order the benchmark's loops reach
 * it. --skip N --limit M (taken out of argv by bench_window_args) make this process run only units
 * N to N+M-1, so a run killed midway goes on from its last row in a new process, and the variants
 * of an experiment can run interleaved, a few units at a time (c18n_ae.running.unit plans this). Every row
 * starts with the wall-clock time its unit started (started_unix_ns). */
static long bench_unit_next, bench_skip, bench_limit = -1, bench_units_run;
static int64_t bench_unit_started_ns;

static inline void bench_window_args(int *argc, char **argv)
{
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        if ((!strcmp(argv[i], "--skip") || !strcmp(argv[i], "--limit")) && i + 1 < *argc) {
            char *end;
            long v = strtol(argv[i + 1], &end, 10);
            if (*end || v < 0) {
                fprintf(stderr, "error: %s expects an integer >= 0, got '%s'\n", argv[i], argv[i + 1]);
                exit(64);
            }
            *(argv[i][2] == 's' ? &bench_skip : &bench_limit) = v;
            i++;
        } else {
            argv[out++] = argv[i];
        }
    }
    *argc = out;
    argv[out] = NULL;
}

/* True when the next unit is inside this process's window; then its start time is taken. */
static inline int bench_unit_begin(void)
{
    long i = bench_unit_next++;
    if (i < bench_skip || (bench_limit >= 0 && i >= bench_skip + bench_limit))
        return 0;
    bench_units_run++;
    bench_unit_started_ns = bench_clock_ns(CLOCK_REALTIME);
    return 1;
}

/* The first unit this process runs pays its first-touch costs (a warm-up, wherever it falls). */
static inline int bench_first_unit(void)
{
    return bench_units_run == 1;
}

static inline void bench_csv_open(bench_csv *c, const char *path, const char *header)
{
    snprintf(c->final_path, sizeof c->final_path, "%s", path);
    snprintf(c->partial_path, sizeof c->partial_path, "%s.partial", path);
    c->f = fopen(c->partial_path, "w");
    if (!c->f)
        bench_die(c->partial_path);
    fprintf(c->f, "started_unix_ns,%s\n", header);
    fflush(c->f);
}

/* Starts a raw row with its unit's start time; the caller prints the rest. */
#define BENCH_ROW(csv, ...)                                                                                  \
    (fprintf((csv)->f, "%lld,", (long long)bench_unit_started_ns), fprintf((csv)->f, __VA_ARGS__))

static inline void bench_csv_flush(bench_csv *c)
{
    if (fflush(c->f) != 0)
        bench_die(c->partial_path);
}

static inline void bench_csv_commit(bench_csv *c)
{
    if (fclose(c->f) != 0)
        bench_die(c->partial_path);
    if (rename(c->partial_path, c->final_path) != 0)
        bench_die(c->final_path);
}

/* "trial i of N" with elapsed seconds and an estimate of what is left, proportional to the work
 * still to do (work units are the benchmark's: bytes, iterations; trials when all are equal). */
static inline void bench_progress(const char *name, long done, long total, double work_done,
                                  double work_total, int64_t start_ns)
{
    double elapsed = (double)(bench_now_ns() - start_ns) / 1e9;
    double left = work_done > 0 ? elapsed * (work_total - work_done) / work_done : 0.0;
    fprintf(stderr, "progress: %s trial %ld of %ld, elapsed %.1f s, estimated %.1f s left\n", name, done,
            total, elapsed, left);
    fflush(stderr);
}

/* Parses a positive integer option value or exits naming the option. */
static inline long bench_parse_long(const char *opt, const char *text, long min)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || *end || end == text || v < min) {
        fprintf(stderr, "error: %s expects an integer >= %ld, got '%s'\n", opt, min, text);
        exit(64);
    }
    return v;
}

/* Parses a comma-separated list of positive integers into out (at most max). */
static inline int bench_parse_list(const char *opt, const char *text, long *out, int max)
{
    int n = 0;
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        if (n == max) {
            fprintf(stderr, "error: %s takes at most %d values\n", opt, max);
            exit(64);
        }
        out[n++] = bench_parse_long(opt, tok, 1);
    }
    if (n == 0) {
        fprintf(stderr, "error: %s needs at least one value\n", opt);
        exit(64);
    }
    return n;
}

#endif
