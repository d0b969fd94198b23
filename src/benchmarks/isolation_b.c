/* E6 library B (child side): reads the strings from the pipe, logs them and keeps them. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "isolation.h"

static char *received[ISO_MAX_STRINGS];

int iso_b_receive(int fd, FILE *log)
{
    int n = 0;
    char s[ISO_STRING_BYTES];
    while (n < ISO_MAX_STRINGS) {
        size_t got = 0;
        while (got < ISO_STRING_BYTES) {
            ssize_t k = read(fd, s + got, ISO_STRING_BYTES - got);
            if (k <= 0)
                goto done;
            got += (size_t)k;
        }
        s[ISO_STRING_BYTES - 1] = 0;
        received[n++] = strdup(s); /* library B's copy stays in the child's heap */
        fprintf(log, "child (library B): read string %d: %s\n", n, s);
        fflush(log);
    }
done:
    return n;
}
