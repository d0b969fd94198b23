/* E10 the cost of a compartment crossing: a tight loop of calls, timed per kind of call.
 *
 *   local     a function of this program (a plain call, no boundary)
 *   library   the same arithmetic in libcrossing_callee.so (under c18n a domain crossing, through
 *             the shim the run-time linker makes for each call into another library)
 *   buffer    a call into the library that passes a 16-byte buffer the callee reads
 *   callback  a call into the library that calls back into this program (two crossings)
 *
 * Each result feeds the next call, so the calls run in order and none can be dropped; after the
 * timed loop the result is checked against the same arithmetic done without calls. Each trial
 * times every kind once, in a fixed order; a row reports the mean time of one call.
 *
 * usage: crossing --out FILE --calls N --trials N | crossing --describe */
#include "bench.h"

#define HEADER "trial,kind,calls,status,ns_per_call,checksum"
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

enum kind { LOCAL, LIBRARY, BUFFER, CALLBACK, KINDS };
static const char *const NAMES[KINDS] = {"local", "library", "buffer", "callback"};

/* calls of one kind from seed; buf is changed as the loop goes (the buffer kind) */
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
        default:
            acc = inline_only ? step_inline(acc) : callee_call_back(step, acc);
        }
    }
    return acc;
}

int main(int argc, char **argv)
{
    const char *out = NULL;
    long calls = 0, trials = 0;
    bench_window_args(&argc, argv);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--describe")) {
            bench_describe("crossing", HEADER, "--calls --trials", "");
            return 0;
        } else if (!strcmp(argv[i], "--out") && i + 1 < argc)
            out = argv[++i];
        else if (!strcmp(argv[i], "--calls") && i + 1 < argc)
            calls = bench_parse_long("--calls", argv[++i], 1);
        else if (!strcmp(argv[i], "--trials") && i + 1 < argc)
            trials = bench_parse_long("--trials", argv[++i], 1);
        else {
            out = NULL;
            break;
        }
    }
    if (!out || !calls || !trials) {
        fprintf(stderr, "usage: %s --out FILE --calls N --trials N | --describe\n", argv[0]);
        return 64;
    }
    bench_csv csv;
    bench_csv_open(&csv, out, HEADER);
    unsigned char buf[BUFFER_BYTES], check[BUFFER_BYTES];
    long total = trials * KINDS, done = 0;
    int bad = 0;
    int64_t start = bench_now_ns();
    for (long trial = 1; trial <= trials; trial++) {
        for (int kind = 0; kind < KINDS; kind++, done++) {
            if (!bench_unit_begin())
                continue;
            uint64_t seed = (uint64_t)(trial * KINDS + kind);
            for (size_t i = 0; i < BUFFER_BYTES; i++)
                buf[i] = check[i] = (unsigned char)(i * 7 + seed);
            int64_t t0 = bench_now_ns();
            uint64_t acc = run((enum kind)kind, calls, seed, buf, 0);
            int64_t t1 = bench_now_ns();
            int ok = acc == run((enum kind)kind, calls, seed, check, 1);
            bad += !ok;
            BENCH_ROW(&csv, "%ld,%s,%ld,%s,%.4f,%llu\n", trial, NAMES[kind], calls,
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
