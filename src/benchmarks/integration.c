/* E5 integration process, modelled on a smart-city case: a store's purchases arrive encrypted
 * to this process's public key; it decrypts them in memory, books a taxi for customers who spent
 * more than a threshold, messages them, and keeps running. The decrypted records and the private
 * key (kept as PEM, as a process that backs its key up would) are what a memory scraper looks for.
 * E1 starts many idle instances of it.
 *
 * usage: integration --serve --pubkey-out FILE [--threshold N]   records as base64 lines on stdin
 *        integration --idle                                         key pair, then wait
 *        integration --feed --pubkey FILE --count N --plain-out FILE  encrypted records to stdout
 *        integration --describe */
#include "bench.h"
#include <signal.h>
#include <unistd.h>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#define MAX_RECORDS 4096
#define RECORD_BYTES 190 /* fits RSA-2048 OAEP-SHA1 */

static volatile sig_atomic_t stop;
static void on_term(int sig)
{
    (void)sig;
    stop = 1;
}

static EVP_PKEY *new_key(void)
{
    EVP_PKEY *key = EVP_RSA_gen(2048);
    if (!key) {
        fprintf(stderr, "error: RSA key generation failed\n");
        exit(2);
    }
    return key;
}

static char *private_pem(EVP_PKEY *key)
{
    BIO *b = BIO_new(BIO_s_mem());
    PEM_write_bio_PrivateKey(b, key, NULL, NULL, 0, NULL, NULL);
    char *data;
    long n = BIO_get_mem_data(b, &data);
    char *copy = malloc((size_t)n + 1);
    memcpy(copy, data, (size_t)n);
    copy[n] = 0;
    BIO_free(b);
    return copy;
}

static void wait_for_term(void)
{
    while (!stop)
        pause();
}

static int idle(void)
{
    EVP_PKEY *key = new_key();
    char *pem = private_pem(key);
    printf("ready %d\n", (int)getpid());
    fflush(stdout);
    wait_for_term();
    free(pem);
    EVP_PKEY_free(key);
    return 0;
}

static int serve(const char *pubkey_out, const char *key_out, double threshold)
{
    EVP_PKEY *key = new_key();
    char *pem = private_pem(key); /* stays in memory while the process runs */
    FILE *f = fopen(pubkey_out, "w");
    if (!f || !PEM_write_PUBKEY(f, key) || fclose(f))
        bench_die(pubkey_out);
    if (key_out) { /* only so the experiment can tell whether a scraper saw the key */
        f = fopen(key_out, "w");
        if (!f || fputs(pem, f) < 0 || fclose(f))
            bench_die(key_out);
    }
    printf("ready %d\n", (int)getpid());
    fflush(stdout);

    static char *records[MAX_RECORDS];
    int nrec = 0, rides = 0;
    char line[4096];
    unsigned char cipher[512], plain[512];
    while (nrec < MAX_RECORDS && fgets(line, sizeof line, stdin)) {
        int n = EVP_DecodeBlock(cipher, (unsigned char *)line, (int)strcspn(line, "\r\n"));
        while (n > 0 && n % 256)
            n--; /* DecodeBlock pads to a multiple of 3 */
        EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(key, NULL);
        size_t plen = sizeof plain - 1;
        if (!ctx || EVP_PKEY_decrypt_init(ctx) <= 0 ||
            EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_OAEP_PADDING) <= 0 ||
            EVP_PKEY_decrypt(ctx, plain, &plen, cipher, (size_t)n) <= 0) {
            fprintf(stderr, "warning: record %d could not be decrypted\n", nrec + 1);
            EVP_PKEY_CTX_free(ctx);
            continue;
        }
        EVP_PKEY_CTX_free(ctx);
        plain[plen] = 0;
        records[nrec++] = strdup((char *)plain);
        const char *amount = strstr((char *)plain, "amount=");
        const char *customer = strstr((char *)plain, "customer=");
        if (amount && customer && atof(amount + 7) > threshold) {
            rides++;
            printf("taxi booked for %.14s; message sent: your ride is on its way\n", customer);
        }
    }
    printf("processed %d records, %d rides booked; running\n", nrec, rides);
    fflush(stdout);
    wait_for_term();
    for (int i = 0; i < nrec; i++)
        free(records[i]);
    free(pem);
    EVP_PKEY_free(key);
    return 0;
}

static int feed(const char *pubkey, long count, const char *plain_out)
{
    FILE *f = fopen(pubkey, "r");
    if (!f)
        bench_die(pubkey);
    EVP_PKEY *key = PEM_read_PUBKEY(f, NULL, NULL, NULL);
    fclose(f);
    FILE *plain = fopen(plain_out, "w");
    if (!key || !plain) {
        fprintf(stderr, "error: cannot read %s or write %s\n", pubkey, plain_out);
        return 2;
    }
    unsigned char rnd[8];
    FILE *ur = fopen("/dev/urandom", "r");
    for (long i = 1; i <= count; i++) {
        if (!ur || fread(rnd, 1, sizeof rnd, ur) != sizeof rnd)
            bench_die("/dev/urandom");
        char rec[RECORD_BYTES];
        snprintf(rec, sizeof rec,
                 "PURCHASE-%02x%02x%02x%02x%02x%02x id=%05ld customer=C%04u amount=%u.%02u store=central",
                 rnd[0], rnd[1], rnd[2], rnd[3], rnd[4], rnd[5], i, rnd[6] * 37u % 10000, rnd[7] * 3u,
                 rnd[6] % 100u);
        fprintf(plain, "%s\n", rec);
        EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(key, NULL);
        unsigned char cipher[512];
        size_t clen = sizeof cipher;
        if (!ctx || EVP_PKEY_encrypt_init(ctx) <= 0 ||
            EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_OAEP_PADDING) <= 0 ||
            EVP_PKEY_encrypt(ctx, cipher, &clen, (unsigned char *)rec, strlen(rec)) <= 0) {
            fprintf(stderr, "error: encryption failed\n");
            return 2;
        }
        EVP_PKEY_CTX_free(ctx);
        unsigned char b64[1024];
        EVP_EncodeBlock(b64, cipher, (int)clen);
        printf("%s\n", b64);
    }
    fclose(ur);
    fclose(plain);
    EVP_PKEY_free(key);
    return 0;
}

int main(int argc, char **argv)
{
    const char *pubkey_out = NULL, *key_out = NULL, *pubkey = NULL, *plain_out = NULL, *mode = NULL;
    long count = 0;
    double threshold = 300;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--describe")) {
            printf("{\"benchmark\": \"integration\", \"clock\": \"CLOCK_MONOTONIC\", "
                   "\"timer_resolution_ns\": %lld, "
                   "\"pointer_bytes\": %zu, \"openssl\": \"%s\"}\n",
                   (long long)bench_resolution_ns(CLOCK_MONOTONIC), sizeof(void *), OPENSSL_VERSION_TEXT);
            return 0;
        } else if (!strcmp(argv[i], "--serve") || !strcmp(argv[i], "--idle") || !strcmp(argv[i], "--feed"))
            mode = argv[i];
        else if (!strcmp(argv[i], "--pubkey-out") && i + 1 < argc)
            pubkey_out = argv[++i];
        else if (!strcmp(argv[i], "--key-out") && i + 1 < argc)
            key_out = argv[++i];
        else if (!strcmp(argv[i], "--pubkey") && i + 1 < argc)
            pubkey = argv[++i];
        else if (!strcmp(argv[i], "--plain-out") && i + 1 < argc)
            plain_out = argv[++i];
        else if (!strcmp(argv[i], "--count") && i + 1 < argc)
            count = bench_parse_long("--count", argv[++i], 1);
        else if (!strcmp(argv[i], "--threshold") && i + 1 < argc)
            threshold = (double)bench_parse_long("--threshold", argv[++i], 0);
        else {
            mode = NULL;
            break;
        }
    }
    struct sigaction sa = {0};
    sa.sa_handler = on_term;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    if (mode && !strcmp(mode, "--idle"))
        return idle();
    if (mode && !strcmp(mode, "--serve") && pubkey_out)
        return serve(pubkey_out, key_out, threshold);
    if (mode && !strcmp(mode, "--feed") && pubkey && count && plain_out)
        return feed(pubkey, count, plain_out);
    fprintf(stderr,
            "usage: %s --serve --pubkey-out FILE [--key-out FILE] [--threshold N] | --idle | "
            "--feed --pubkey FILE --count N --plain-out FILE | --describe\n",
            argv[0]);
    return 64;
}
