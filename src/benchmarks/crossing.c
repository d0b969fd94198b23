/* E10 the cost of a compartment crossing: a tight loop of calls, timed per kind of call.
 *
 *   local     a function of this program (a plain call, no boundary)
 *   library   the same arithmetic in libcrossing_callee.so (under c18n a domain crossing, through
 *             the shim the run-time linker makes for each call into another library)
 *   buffer    a call into the library that passes a 16-byte buffer the callee reads
 *   callback  a call into the library that calls back into this program (two crossings)
 *   getpid    getpid(2) alone, a system call with no library of this program in between (the
 *             known answer of the board check: under c18n the run-time linker's overhead
 *             injection adds one getpid to every domain transition; run it in a variant without
 *             c18n, where the call into libc crosses no boundary)
 *
 * --kinds chooses which kinds run (default the first four, the experiment's; the board check runs
 * getpid alone, or library and local alone, with its own rows).
 * Each result feeds the next call, so the calls run in order and none can be dropped; after the
 * timed loop the result is checked against the same arithmetic done without calls. Each trial
 * times every kind once, in an order drawn from --seed and the trial's number (the same whichever
 * process runs the trial; its place is the row's position), so no kind always follows another; a
 * row reports the mean time of one call. A process that runs any trial first runs one untimed loop
 * of every kind (lazy binding of the library's functions, caches, branch predictors), not kept.
 *
 * usage: crossing --help */
#include "bench.h"

#include <unistd.h>

#define HEADER "trial,position,kind,calls,status,ns_per_call,checksum"
#define BUFFER_BYTES 16

uint64_t callee_step(uint64_t x);
uint64_t callee_sum(const unsigned char *buf, size_t n, uint64_t x);
uint64_t callee_call_back(uint64_t (*fn)(uint64_t), uint64_t x);

static inline uint64_t step_inline(uint64_t x)
{
    return (x ^ (x >> 7)) * 0x9E3779B97F4A7C15ULL + 1;
}

/* The plain call: not inlined, so the loop makes a real call as the library kinds do. */
__attribute__((noinline)) uint64_t step(uint64_t x)
{
    return step_inline(x);
}

enum kind { LOCAL, LIBRARY, BUFFER, CALLBACK, GETPID, KINDS };
static const char *const NAMES[KINDS] = {"local", "library", "buffer", "callback", "getpid"};
static uint64_t own_pid; /* read once: the loop without calls folds in the same value */

/* calls of one kind from acc; buf is changed as the loop goes (the buffer kind) */
static uint64_t run(enum kind kind, long calls, uint64_t acc, unsigned char *buf, int inline_only)
{
    for (long k = 0; k < calls; k++) {
        switch (kind) {
        case LOCAL:
            acc = inline_only ? step_inline(acc) : step(acc);
            break;
        case LIBRARY:
            acc = inline_only ? step_inline(acc) : callee_step(acc);
            break;
        case BUFFER:
            if (inline_only) {
                for (size_t i = 0; i < BUFFER_BYTES; i++)
                    acc += buf[i];
                acc *= 31;
            } else
                acc = callee_sum(buf, BUFFER_BYTES, acc);
            buf[k % BUFFER_BYTES] = (unsigned char)acc;
            break;
        case GETPID:
            acc = step_inline(acc ^ (inline_only ? own_pid : (uint64_t)getpid()));
            break;
        default:
            acc = inline_only ? step_inline(acc) : callee_call_back(step, acc);
        }
    }
    return acc;
}

/* splitmix64's output function: consecutive inputs give unrelated outputs */
static uint64_t mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

/* The n chosen kinds in the order trial runs them: a Fisher-Yates shuffle drawn from seed and
 * trial (the four default kinds keep the order they always had). */
static void trial_order(uint64_t seed, long trial, const int chosen[], int n, int order[KINDS])
{
    uint64_t state = mix(seed ^ mix((uint64_t)trial));
    for (int i = 0; i < n; i++)
        order[i] = chosen[i];
    for (int i = n - 1; i > 0; i--) {
        state = mix(state);
        int j = (int)(state % (uint64_t)(i + 1)), t = order[i];
        order[i] = order[j], order[j] = t;
    }
}

/* The kinds named in the comma-separated list, in their enum order; their number, or 0 when a
 * name is not a kind. */
static int chosen_kinds(const char *list, int chosen[KINDS])
{
    char padded[256];
    int n = 0, named = 1;
    snprintf(padded, sizeof padded, ",%s,", list);
    for (const char *c = list; *c; c++)
        named += *c == ',';
    for (int k = 0; k < KINDS; k++) {
        char key[32];
        snprintf(key, sizeof key, ",%s,", NAMES[k]);
        if (strstr(padded, key) != NULL)
            chosen[n++] = k;
    }
    return n == named ? n : 0;
}

int main(int argc, char **argv)
{
    long calls = 0, trials = 0, seed = 0;
    const char *kinds = NULL;
    const bench_option options[] = {
        BENCH_INTEGER("--calls", calls, 1, BENCH_REQUIRED, "calls timed together in one loop"),
        BENCH_INTEGER("--trials", trials, 1, BENCH_REQUIRED, "trials, each timing every kind once"),
        BENCH_INTEGER("--seed", seed, 0, BENCH_DEFAULT("1"), "seed of each trial's order of the kinds"),
        BENCH_TEXT("--kinds", kinds, BENCH_DEFAULT("local,library,buffer,callback"),
                   "the kinds of call to time (also getpid)"),
    };
    const char *out = bench_init(argc, argv, "crossing", HEADER, options, "");
    int chosen[KINDS], nkinds = chosen_kinds(kinds, chosen);
    if (!nkinds) {
        fprintf(stderr, "error: --kinds %s: give kinds among local,library,buffer,callback,getpid\n", kinds);
        return 64;
    }
    own_pid = (uint64_t)getpid();
    bench_csv csv;
    bench_csv_open(&csv, out, HEADER);
    unsigned char buf[BUFFER_BYTES], check[BUFFER_BYTES];
    long total = trials * nkinds, done = 0;
    int bad = 0;
    if (bench_window_holds(total)) { /* the warm-up: results dropped, nothing written */
        uint64_t acc = 0;
        memset(buf, 0, sizeof buf);
        for (int i = 0; i < nkinds; i++)
            acc += run((enum kind)chosen[i], calls, acc, buf, 0);
        bench_clobber(&acc);
    }
    int64_t start = bench_now_ns();
    for (long trial = 1; trial <= trials; trial++) {
        int order[KINDS];
        trial_order((uint64_t)seed, trial, chosen, nkinds, order);
        for (int position = 1; position <= nkinds; position++, done++) {
            if (!bench_unit_begin())
                continue;
            int kind = order[position - 1];
            uint64_t first = (uint64_t)(trial * 4 + kind); /* 4: the seeds the rows always had */
            for (size_t i = 0; i < BUFFER_BYTES; i++)
                buf[i] = check[i] = (unsigned char)(i * 7 + first);
            int64_t t0 = bench_now_ns();
            uint64_t acc = run((enum kind)kind, calls, first, buf, 0);
            int64_t t1 = bench_now_ns();
            int ok = acc == run((enum kind)kind, calls, first, check, 1);
            bad += !ok;
            BENCH_ROW(&csv, "%ld,%d,%s,%ld,%s,%.4f,%llu\n", trial, position, NAMES[kind], calls,
                      ok ? "ok" : "checksum_mismatch", (double)(t1 - t0) / (double)calls,
                      (unsigned long long)acc);
            bench_csv_flush(&csv);
            bench_progress("crossing", done + 1, total, (double)(done + 1), (double)total, start);
        }
    }
    if (bad) {
        fprintf(stderr, "error: %d timed loops disagree with the same arithmetic done without calls\n", bad);
        fclose(csv.f);
        return 3;
    }
    bench_csv_commit(&csv);
    return 0;
}
