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
#include <stdarg.h>
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
 * it. --skip N --limit M (read by bench_init) make this process run only units
 * N to N+M-1, so a run killed midway goes on from its last row in a new process, and the variants
 * of an experiment can run interleaved, a few units at a time (c18n_ae.running.unit plans this). Every row
 * starts with the wall-clock time its unit started (started_unix_ns). */
static long bench_unit_next, bench_skip, bench_limit = -1, bench_units_run;
static int64_t bench_unit_started_ns;

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

/* True when this process's window holds any of a program's units (so it will time something). */
static inline int bench_window_holds(long units)
{
    return bench_skip < units && bench_limit != 0;
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

/* Parses an integer option value >= min or exits naming the option. */
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

/* Parses a comma-separated list of integers >= min into out (at most max). */
static inline int bench_parse_list(const char *opt, const char *text, long *out, int max, long min)
{
    int n = 0;
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        if (n == max) {
            fprintf(stderr, "error: %s takes at most %d values\n", opt, max);
            exit(64);
        }
        out[n++] = bench_parse_long(opt, tok, min);
    }
    if (n == 0) {
        fprintf(stderr, "error: %s needs at least one value\n", opt);
        exit(64);
    }
    return n;
}

/* Options: each program declares its options once, in a table of BENCH_* entries (as
 * google/benchmark registers its flags), and bench_init reads argv against it; the usage message
 * and --describe print the same table, so a name, its type, its default, its smallest value and
 * its help are written in one place. The entry macros check the variable's type at compile time
 * (_Generic with one association); values reach it through a plain pointer, never an integer. */
#define BENCH_MAX_ITEMS 64   /* values of one integer list */
#define BENCH_MAX_OPTIONS 32 /* options of one program, --out, --skip and --limit included */

typedef struct {
    int n;
    long v[BENCH_MAX_ITEMS];
} bench_list;

typedef enum { BENCH_T_INTEGER, BENCH_T_INTEGERS, BENCH_T_TEXT, BENCH_T_FILE, BENCH_T_FLAG } bench_type;

typedef struct {
    const char *name; /* with its dashes: "--trials" */
    bench_type type;
    void *value;          /* long, bench_list, const char * or int (a flag: 1 when given) */
    const char *fallback; /* the default, read as if it were given; NULL: none */
    int required;
    long min;      /* integers: the smallest value allowed */
    int max_items; /* integer lists: the most values */
    const char *help;
} bench_option;

/* The default argument of an entry: one of these. */
#define BENCH_REQUIRED NULL, 1
#define BENCH_OPTIONAL NULL, 0 /* the variable keeps its initial value */
#define BENCH_DEFAULT(text) text, 0

#define BENCH_INTEGER(name, var, min, dflt, help)                                                            \
    {                                                                                                        \
        name, BENCH_T_INTEGER, _Generic(&(var), long * : &(var)), dflt, min, 0, help                         \
    }
#define BENCH_INTEGERS(name, var, min, max_items, dflt, help)                                                \
    {                                                                                                        \
        name, BENCH_T_INTEGERS, _Generic(&(var), bench_list * : &(var)), dflt, min, max_items, help          \
    }
#define BENCH_TEXT(name, var, dflt, help)                                                                    \
    {                                                                                                        \
        name, BENCH_T_TEXT, _Generic(&(var), const char ** : &(var)), dflt, 0, 0, help                       \
    }
#define BENCH_FILE(name, var, dflt, help)                                                                    \
    {                                                                                                        \
        name, BENCH_T_FILE, _Generic(&(var), const char ** : &(var)), dflt, 0, 0, help                       \
    }
#define BENCH_FLAG(name, var, help)                                                                          \
    {                                                                                                        \
        name, BENCH_T_FLAG, _Generic(&(var), int * : &(var)), NULL, 0, 0, 0, help                            \
    }

/* The program as bench_init was given it, for the usage message and --describe. */
static struct {
    const char *argv0, *name, *header, *extra;
    const bench_option *options;
    int n;
} bench_program;
static const char *bench_out_path;

/* Options of every program that writes a raw CSV (one with a header). */
static const bench_option bench_csv_options[] = {
    BENCH_FILE("--out", bench_out_path, BENCH_REQUIRED, "the raw CSV (FILE.partial until the run ends)"),
    BENCH_INTEGER("--skip", bench_skip, 0, BENCH_OPTIONAL, "units to leave out first"),
    BENCH_INTEGER("--limit", bench_limit, 0, BENCH_OPTIONAL, "units to run at most; all when not given"),
};
#define BENCH_NCSV ((int)(sizeof bench_csv_options / sizeof bench_csv_options[0]))

/* The i-th option: --out, --skip, --limit first if the program writes a CSV, then its own. */
static inline const bench_option *bench_option_at(int i)
{
    int ncsv = bench_program.header ? BENCH_NCSV : 0;
    if (i < ncsv)
        return &bench_csv_options[i];
    return i < ncsv + bench_program.n ? &bench_program.options[i - ncsv] : NULL;
}

static inline const char *bench_metavar(bench_type type)
{
    static const char *const names[] = {"N", "N,N,...", "TEXT", "FILE", ""};
    return names[type];
}

static inline void bench_usage(FILE *f)
{
    fprintf(f, "usage: %s", bench_program.argv0);
    const bench_option *o;
    for (int i = 0; (o = bench_option_at(i)); i++) {
        const char *space = o->type == BENCH_T_FLAG ? "" : " ";
        fprintf(f, o->required ? " %s%s%s" : " [%s%s%s]", o->name, space, bench_metavar(o->type));
    }
    fprintf(f, " | --describe | --help\n");
    for (int i = 0; (o = bench_option_at(i)); i++) {
        char synopsis[64];
        snprintf(synopsis, sizeof synopsis, "%s %s", o->name, bench_metavar(o->type));
        fprintf(f, "  %-22s %s", synopsis, o->help);
        if (o->type == BENCH_T_INTEGER)
            fprintf(f, " (an integer >= %ld)", o->min);
        if (o->type == BENCH_T_INTEGERS)
            fprintf(f, " (1 to %d integers >= %ld)", o->max_items, o->min);
        if (o->fallback)
            fprintf(f, " (default %s)", o->fallback);
        fprintf(f, "\n");
    }
}

/* A wrong command line: the reason, then the usage message; exit status 64 (EX_USAGE). */
__attribute__((format(printf, 1, 2))) static inline _Noreturn void bench_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "error: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    bench_usage(stderr);
    exit(64);
}

static inline void bench_json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            putchar('\\');
        putchar(*s);
    }
    putchar('"');
}

/* --describe: the raw CSV's columns (the one place they are written: the Python side reads them
 * from the file's header) and the program's options, as the flags alone ("options", which the
 * Python side checks its parameters against) and as the table, with the clock and its
 * resolution; extra: more fields (",\"k\": v"). */
static inline void bench_describe(void)
{
    static const char *const types[] = {"integer", "integer list", "text", "file", "flag"};
    printf("{\"benchmark\": \"%s\", ", bench_program.name);
    if (bench_program.header)
        printf("\"columns\": \"started_unix_ns,%s\", ", bench_program.header);
    printf("\"options\": \"");
    for (int i = 0; i < bench_program.n; i++)
        printf("%s%s", i ? " " : "", bench_program.options[i].name);
    printf("\", \"option_table\": [");
    for (int i = 0; i < bench_program.n; i++) {
        const bench_option *o = &bench_program.options[i];
        printf("%s{\"option\": \"%s\", \"type\": \"%s\", \"required\": %s", i ? ", " : "", o->name,
               types[o->type], o->required ? "true" : "false");
        if (o->type == BENCH_T_INTEGER || o->type == BENCH_T_INTEGERS)
            printf(", \"minimum\": %ld", o->min);
        if (o->type == BENCH_T_INTEGERS)
            printf(", \"max_items\": %d", o->max_items);
        if (o->fallback) {
            printf(", \"default\": ");
            bench_json_string(o->fallback);
        }
        printf(", \"help\": ");
        bench_json_string(o->help);
        printf("}");
    }
    printf("], \"clock\": \"CLOCK_MONOTONIC\", \"timer_resolution_ns\": %lld, \"pointer_bytes\": %zu%s}\n",
           (long long)bench_resolution_ns(CLOCK_MONOTONIC), sizeof(void *), bench_program.extra);
}

/* Stores one value of an option, checked as its type says (exits 64 naming the option). */
static inline void bench_set(const bench_option *o, const char *text)
{
    switch (o->type) {
    case BENCH_T_INTEGER:
        *(long *)o->value = bench_parse_long(o->name, text, o->min);
        break;
    case BENCH_T_INTEGERS: {
        bench_list *list = o->value;
        list->n = bench_parse_list(o->name, text, list->v, o->max_items, o->min);
        break;
    }
    case BENCH_T_FLAG:
        *(int *)o->value = 1;
        break;
    default:
        *(const char **)o->value = text;
    }
}

/* Reads argv against the program's table (and --out, --skip, --limit when it writes a CSV, that is
 * when header is not NULL): --describe prints the description, --help the usage message, both
 * exit 0; an unknown option, a missing value or a missing required option is a usage error. An
 * option not given takes its default. Returns --out (NULL without a header). */
static inline const char *bench_init_table(int argc, char **argv, const char *name, const char *header,
                                           const bench_option *options, int n, const char *extra)
{
    bench_program.argv0 = argv[0], bench_program.name = name, bench_program.header = header;
    bench_program.extra = extra, bench_program.options = options, bench_program.n = n;
    unsigned char given[BENCH_MAX_OPTIONS] = {0};
    const bench_option *o;
    for (int k = 0; (o = bench_option_at(k)); k++)
        if (k == BENCH_MAX_OPTIONS || (o->type == BENCH_T_INTEGERS && o->max_items > BENCH_MAX_ITEMS)) {
            fprintf(stderr, "error: %s: more options or list values than bench.h holds\n", name);
            exit(2);
        }
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--describe")) {
            bench_describe();
            exit(0);
        }
        if (!strcmp(argv[i], "--help")) {
            bench_usage(stdout);
            exit(0);
        }
        int k = 0;
        while ((o = bench_option_at(k)) && strcmp(o->name, argv[i]))
            k++;
        if (!o)
            bench_usage_error("unknown option '%s'", argv[i]);
        if (o->type != BENCH_T_FLAG && i + 1 == argc)
            bench_usage_error("%s needs a value", argv[i]);
        bench_set(o, o->type == BENCH_T_FLAG ? NULL : argv[++i]);
        given[k] = 1;
    }
    for (int k = 0; (o = bench_option_at(k)); k++) {
        if (!given[k] && o->required)
            bench_usage_error("%s is required", o->name);
        if (!given[k] && o->fallback)
            bench_set(o, o->fallback);
    }
    return bench_out_path;
}

/* The table's length is counted here, so a program passes the array itself. */
#define bench_init(argc, argv, name, header, options, extra)                                                 \
    bench_init_table(argc, argv, name, header, options, (int)(sizeof(options) / sizeof((options)[0])), extra)

#endif
