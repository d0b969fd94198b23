/* E7 consumer plugin: a separate shared library that touches every byte of a packet it is
 * handed by pointer (no copy). Under a c18n variant this call crosses a compartment boundary. */
#include <stddef.h>
#include <stdint.h>

uint64_t packet_consume(const unsigned char *packet, size_t n)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a over the whole packet */
    for (size_t i = 0; i < n; i++)
        h = (h ^ packet[i]) * 1099511628211ULL;
    return h;
}
