/* E2 memory: time malloc, write, read and free of large blocks.
 *
 * Each trial stores a trial-specific non-zero byte to every byte of the block,
 * then loads every byte back (as 64-bit words) into a sum whose value is known. A loop that
 * the compiler removed, or that touches nothing, fails that check, unlike the
 * original study's loops, whose results were never used.
 *
 * --touch-first stores to every page before the timed write, so the write measures stores to
 * resident memory only (bench/fidelity compares it with memset and bw_mem, which do the same).
 *
 * usage: memory --help */
#include "bench.h"

#define MAX_SIZES 64
#define HEADER "block_mib,trial,status,malloc_ns,write_ns,read_ns,free_ns,checksum"

static unsigned char fill_byte(long trial, int size_index)
{
    return (unsigned char)(1 + (trial * 7 + size_index) % 255);
}

#define REPEAT_BYTE(v) ((uint64_t)(v)*0x0101010101010101ULL)

/* A plain byte store loop, which an optimising compiler may turn into memset. */
static void write_block(unsigned char *block, size_t n, unsigned char v)
{
#ifndef BENCH_SKIP_WRITE /* only for the test that proves the checksum catches it */
    for (size_t i = 0; i < n; i++)
        block[i] = v;
#else
    (void)block;
    (void)n;
    (void)v;
#endif
}

/* Sum of the block's 64-bit words, modulo 2^64, with four independent sums. A byte-wide,
 * single-sum loop measures the loop (one load per cycle), not the memory system, which is what
 * bw_mem rd measures the same way. Every byte is still loaded. Blocks are whole MiB: n % 32 == 0. */
static uint64_t read_block(const unsigned char *block, size_t n)
{
    const uint64_t *w = (const uint64_t *)block;
    uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (size_t i = 0; i < n / 8; i += 4) {
        s0 += w[i];
        s1 += w[i + 1];
        s2 += w[i + 2];
        s3 += w[i + 3];
    }
    return s0 + s1 + s2 + s3;
}

int main(int argc, char **argv)
{
    bench_list sizes = {0};
    long trials = 0;
    int touch_first = 0;
    const bench_option options[] = {
        BENCH_INTEGERS("--sizes-mib", sizes, 1, MAX_SIZES, BENCH_REQUIRED, "block sizes (MiB)"),
        BENCH_INTEGER("--trials", trials, 1, BENCH_REQUIRED, "trials per block"),
        BENCH_FLAG("--touch-first", touch_first, "store to every page before the timed write"),
    };
    const char *out = bench_init(argc, argv, "memory", HEADER, options, "");
    int nsizes = sizes.n;

    bench_csv csv;
    bench_csv_open(&csv, out, HEADER);
    int64_t start = bench_now_ns();
    long total = (long)nsizes * trials, done = 0, bad = 0;
    double work_total = 0, work_done = 0; /* MiB touched: larger blocks take longer */
    for (int s = 0; s < nsizes; s++)
        work_total += (double)sizes.v[s] * trials;

    for (int s = 0; s < nsizes; s++) {
        size_t n = (size_t)sizes.v[s] * 1024 * 1024;
        for (long t = 1; t <= trials; t++) {
            if (!bench_unit_begin()) {
                done++, work_done += (double)sizes.v[s];
                continue;
            }
            unsigned char v = fill_byte(t, s);
            int64_t t0 = bench_now_ns();
            unsigned char *block = malloc(n);
            int64_t t1 = bench_now_ns(), t_alloc = t1 - t0;
            if (!block) {
                BENCH_ROW(&csv, "%ld,%ld,alloc_failed,,,,,\n", sizes.v[s], t);
            } else {
                if (touch_first) {
                    for (size_t i = 0; i < n; i += 4096)
                        block[i] = 0;
                    bench_clobber(block);
                    t1 = bench_now_ns(); /* the page faults are not the write's */
                }
                write_block(block, n, v);
                bench_clobber(block);
                int64_t t2 = bench_now_ns();
                uint64_t sum = read_block(block, n);
                int64_t t3 = bench_now_ns();
                free(block);
                int64_t t4 = bench_now_ns();
                int ok = sum == (uint64_t)(n / 8) * REPEAT_BYTE(v);
                bad += !ok;
                BENCH_ROW(&csv, "%ld,%ld,%s,%lld,%lld,%lld,%lld,%llu\n", sizes.v[s], t,
                          ok ? "ok" : "checksum_mismatch", (long long)t_alloc, (long long)(t2 - t1),
                          (long long)(t3 - t2), (long long)(t4 - t3), (unsigned long long)sum);
            }
            bench_csv_flush(&csv);
            work_done += (double)sizes.v[s];
            bench_progress("memory", ++done, total, work_done, work_total, start);
        }
    }
    if (bad) {
        /* Leave the .partial file for inspection; never publish wrong data. */
        fprintf(stderr,
                "error: checksum mismatch in %ld trials: the write or read loop did not touch the block\n",
                bad);
        fclose(csv.f);
        return 3;
    }
    bench_csv_commit(&csv);
    return 0;
}
