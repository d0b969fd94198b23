/* E6: the interface between the main program and libraries A and B. */
#ifndef ISOLATION_H
#define ISOLATION_H
#include <stdio.h>

#define ISO_MAX_STRINGS 1024
#define ISO_STRING_BYTES 64

int iso_a_send(int fd, int count, FILE *sent_log, FILE *log);
int iso_b_receive(int fd, FILE *log);

#endif
