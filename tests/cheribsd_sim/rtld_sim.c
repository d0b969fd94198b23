/* Simulated part of CheriBSD's run-time linker for the tests' CheriBSD target (tests/cheribsd_sim):
 * loaded into every process of the loopback sshd's sessions (LD_PRELOAD), it stands in for what
 * libexec/rtld-elf/rtld_c18n.c does at the trampolines of E10's second library, and nothing else.
 * This host's linker makes no compartments: these counts and getpid calls are simulated.
 *
 * Active only in a process that runs "in compartments": LD_COMPARTMENT_ENABLE in its environment
 * (as rtld_c18n.c reads it), or CHERIBSD_SIM_C18N=1, which the simulated proccontrol sets when it
 * enables the cheric18n mode (the real one sets a process flag that the kernel hands the linker).
 * Then, as the trampolines of rtld_c18n.c's aarch64 tramp_compile do, for every call into
 * libcrossing_callee and its return (callee_call_back also calls back into the program: four):
 *   LD_COMPARTMENT_SWITCH_COUNT  counts each transition (count_entry, count_return: one each)
 *   LD_COMPARTMENT_OVERHEAD      calls getpid(2) at each transition (the hook on enter and leave)
 * and LD_COMPARTMENT_STATS=FILE maps FILE and keeps struct rtld_c18n_stats of sys/cheri/c18n.h
 * in it (seven size_t: version 1, compartments, stacks, trampolines, trampoline pages, bytes,
 * switches), as c18n_init does. A test may make the injection wrong on purpose: state.json's
 * "overhead_getpids_per_transition" (default 1) is read from beside this library. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct rtld_c18n_stats {
    size_t version, rcs_compart, rcs_ustack, rcs_tramp, rcs_tramp_page, rcs_bytes_total, rcs_switch;
};

static int active, counting, getpids;
static struct rtld_c18n_stats local_stats, *stats = &local_stats;

static int objects(struct dl_phdr_info *info, size_t size, void *n)
{
    (void)info, (void)size;
    ++*(size_t *)n;
    return 0;
}

/* state.json's "overhead_getpids_per_transition", beside this library; 1 when absent */
static int getpids_per_transition(void)
{
    Dl_info self;
    char path[4096], text[8192];
    if (!dladdr((void *)getpids_per_transition, &self) || !self.dli_fname)
        return 1;
    snprintf(path, sizeof path, "%s", self.dli_fname);
    char *slash = strrchr(path, '/');
    snprintf(slash ? slash + 1 : path, sizeof path - (size_t)(slash ? slash + 1 - path : 0), "state.json");
    FILE *f = fopen(path, "r");
    if (!f)
        return 1;
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    const char *key = strstr(text, "\"overhead_getpids_per_transition\":");
    return key ? atoi(key + strlen("\"overhead_getpids_per_transition\":")) : 1;
}

static void map_stats(const char *file)
{
    int fd = open(file, O_RDWR | O_TRUNC | O_CREAT, 0666);
    if (fd < 0 || ftruncate(fd, sizeof *stats) != 0)
        return;
    void *m = mmap(NULL, sizeof *stats, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (m != MAP_FAILED)
        stats = m;
}

__attribute__((constructor)) static void sim_init(void)
{
    const char *sim = getenv("CHERIBSD_SIM_C18N");
    active = getenv("LD_COMPARTMENT_ENABLE") != NULL || (sim && strcmp(sim, "1") == 0);
    if (!active)
        return;
    counting = getenv("LD_COMPARTMENT_SWITCH_COUNT") != NULL;
    getpids = getenv("LD_COMPARTMENT_OVERHEAD") != NULL ? getpids_per_transition() : 0;
    if (getenv("LD_COMPARTMENT_STATS"))
        map_stats(getenv("LD_COMPARTMENT_STATS"));
    size_t n = 0;
    dl_iterate_phdr(objects, &n); /* one compartment per loaded object, as the default policy */
    *stats = (struct rtld_c18n_stats){.version = 1, .rcs_compart = n, .rcs_ustack = n, .rcs_tramp = 3,
                                      .rcs_tramp_page = 1, .rcs_bytes_total = 65536};
}

static void transitions(int n)
{
    if (!active)
        return;
    if (counting)
        __atomic_add_fetch(&stats->rcs_switch, (size_t)n, __ATOMIC_RELAXED);
    for (int i = 0; i < n * getpids; i++)
        getpid();
}

#define NEXT(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

uint64_t callee_step(uint64_t x);
uint64_t callee_sum(const unsigned char *buf, size_t n, uint64_t x);
uint64_t callee_call_back(uint64_t (*fn)(uint64_t), uint64_t x);

uint64_t callee_step(uint64_t x)
{
    static __typeof__(&callee_step) next;
    if (!next)
        next = NEXT(callee_step);
    transitions(2);
    return next(x);
}

uint64_t callee_sum(const unsigned char *buf, size_t n, uint64_t x)
{
    static __typeof__(&callee_sum) next;
    if (!next)
        next = NEXT(callee_sum);
    transitions(2);
    return next(buf, n, x);
}

uint64_t callee_call_back(uint64_t (*fn)(uint64_t), uint64_t x)
{
    static __typeof__(&callee_call_back) next;
    if (!next)
        next = NEXT(callee_call_back);
    transitions(4);
    return next(fn, x);
}
