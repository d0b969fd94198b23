/* E10's second library (libcrossing_callee.so): the functions E10 calls from the program. Under
 * c18n each library is a compartment, so every call into this library, and every call back out of
 * it, goes through the domain-crossing shim the run-time linker makes. The arithmetic is the same
 * as the program's own step(), so only where the function lives differs. */
#include <stddef.h>
#include <stdint.h>

uint64_t callee_step(uint64_t x)
{
    return (x ^ (x >> 7)) * 0x9E3779B97F4A7C15ULL + 1;
}

/* Reads every byte of the buffer the caller passes (a capability under purecap). */
uint64_t callee_sum(const unsigned char *buf, size_t n, uint64_t x)
{
    for (size_t i = 0; i < n; i++)
        x += buf[i];
    return x * 31;
}

/* Calls back into the caller's object: two crossings per call under c18n. */
uint64_t callee_call_back(uint64_t (*fn)(uint64_t), uint64_t x)
{
    return fn(x);
}
