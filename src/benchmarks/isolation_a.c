/* E6 library A (parent side): writes random strings to a pipe and keeps its own copies. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "isolation.h"

static char *sent[ISO_MAX_STRINGS];

int iso_a_send(int fd, int count, FILE *sent_log, FILE *log)
{
    FILE *ur = fopen("/dev/urandom", "r");
    if (!ur)
        return -1;
    for (int i = 0; i < count && i < ISO_MAX_STRINGS; i++) {
        unsigned char r[12];
        if (fread(r, 1, sizeof r, ur) != sizeof r)
            return -1;
        char s[ISO_STRING_BYTES];
        int n = snprintf(s, sizeof s, "LIBA-SECRET-");
        for (size_t k = 0; k < sizeof r; k++)
            n += snprintf(s + n, sizeof s - (size_t)n, "%02x", r[k]);
        sent[i] = strdup(s); /* library A's copy stays in the parent's heap */
        fprintf(sent_log, "%s\n", s);
        fprintf(log, "parent (library A): wrote string %d: %s\n", i + 1, s);
        if (write(fd, s, ISO_STRING_BYTES) != ISO_STRING_BYTES)
            return -1;
    }
    fclose(ur);
    fflush(sent_log);
    fflush(log);
    return 0;
}
