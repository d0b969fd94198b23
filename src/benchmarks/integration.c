/* E5 integration process, modelled on a smart-city case: a store's purchases arrive encrypted
 * to this process's public key; it decrypts them in memory, books a taxi for customers who spent
 * more than a threshold, messages them, and keeps running. The decrypted records and the private
 * key (kept as PEM, as a process that backs its key up would) are what a memory scraper looks for.
 * E1 starts many idle instances of it.
 *
 * modes: integration --serve --pubkey-out FILE [--threshold N]   records as base64 lines on stdin
 *        integration --idle                                         key pair, then wait
 *        integration --feed --pubkey FILE --count N --plain-out FILE  encrypted records to stdout
 *        integration --help                                         every option */
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
    const char *pubkey_out = NULL, *key_out = NULL, *pubkey = NULL, *plain_out = NULL;
    long count = 0, threshold = 0;
    int serving = 0, idling = 0, feeding = 0;
    const bench_option options[] = {
        BENCH_FLAG("--serve", serving, "mode: decrypt records from stdin, book rides, keep running"),
        BENCH_FLAG("--idle", idling, "mode: make a key pair, then wait"),
        BENCH_FLAG("--feed", feeding, "mode: write encrypted records to stdout"),
        BENCH_FILE("--pubkey-out", pubkey_out, BENCH_OPTIONAL, "--serve: where its public key goes"),
        BENCH_FILE("--key-out", key_out, BENCH_OPTIONAL, "--serve: where its private key goes"),
        BENCH_INTEGER("--threshold", threshold, 0, BENCH_DEFAULT("300"), "--serve: amount that books a ride"),
        BENCH_FILE("--pubkey", pubkey, BENCH_OPTIONAL, "--feed: the public key to encrypt to"),
        BENCH_INTEGER("--count", count, 1, BENCH_OPTIONAL, "--feed: records to write"),
        BENCH_FILE("--plain-out", plain_out, BENCH_OPTIONAL, "--feed: where the records go in clear"),
    };
    bench_init(argc, argv, "integration", NULL, options, ", \"openssl\": \"" OPENSSL_VERSION_TEXT "\"");
    struct sigaction sa = {0};
    sa.sa_handler = on_term;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    if (serving + idling + feeding != 1)
        bench_usage_error("give one of --serve, --idle, --feed");
    if (idling)
        return idle();
    if (serving && pubkey_out)
        return serve(pubkey_out, key_out, (double)threshold);
    if (feeding && pubkey && count && plain_out)
        return feed(pubkey, count, plain_out);
    bench_usage_error("%s", serving ? "--serve needs --pubkey-out"
                                    : "--feed needs --pubkey, --count and --plain-out");
}
