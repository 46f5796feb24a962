/* Throughput of every SHA-256 and CRC-32 path of Sources/CGalleryChecksum, compiled from those
 * very files (Benchmarks/hashing.py builds it), over one buffer that stays in cache as
 * `openssl speed` measures its own, and per second of processor time as it divides by default
 * (so that other work on the machine does not lower the figures): MB/s per path, one line
 * each, as `name MB/s`. A path this processor lacks prints `name unavailable: reason`.
 *
 * usage: hash-speed SECONDS-PER-PATH */
#include "gallery_checksum.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <zlib.h>

enum { buffer_bytes = 16384 };

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void sha256(const char *name, enum ig_sha256_path path, const unsigned char *buffer, double seconds) {
    const char *reason = "";
    if (!ig_sha256_path_available(path, &reason)) {
        printf("sha256-%s unavailable: %s\n", name, reason);
        return;
    }
    ig_sha256 hash;
    ig_sha256_init(&hash, path);
    /* The best path moves to libcrypto after a megabyte: pass it before the clock starts. */
    for (int i = 0; i < 128; i++) ig_sha256_update(&hash, buffer, buffer_bytes);
    double start = now(), elapsed;
    size_t total = 0;
    do {
        for (int i = 0; i < 64; i++) ig_sha256_update(&hash, buffer, buffer_bytes);
        total += 64 * (size_t)buffer_bytes;
    } while ((elapsed = now() - start) < seconds);
    unsigned char digest[32];
    ig_sha256_final(&hash, digest);
    printf("sha256-%s %.1f\n", name, (double)total / elapsed / 1e6);
}

static void crc(const char *name, int path, const unsigned char *buffer, double seconds) {
    const char *reason = "";
    if (path >= 0 && !ig_crc32_path_available((enum ig_crc32_path)path, &reason)) {
        printf("crc32-%s unavailable: %s\n", name, reason);
        return;
    }
    uint32_t value = 0;
    double start = now(), elapsed;
    size_t total = 0;
    do {
        for (int i = 0; i < 1024; i++) {
            value = path < 0 ? (uint32_t)crc32(value, buffer, buffer_bytes)
                             : ig_crc32_by((enum ig_crc32_path)path, value, buffer, buffer_bytes);
        }
        total += 1024 * (size_t)buffer_bytes;
    } while ((elapsed = now() - start) < seconds);
    printf("crc32-%s %.1f (%08x)\n", name, (double)total / elapsed / 1e6, value);
}

int main(int argc, char **argv) {
    double seconds = argc > 1 ? atof(argv[1]) : 2.0;
    unsigned char *buffer = malloc(buffer_bytes);
    for (int i = 0; i < buffer_bytes; i++) buffer[i] = (unsigned char)(i * 131 + 7);
    sha256("portable", IG_SHA256_PORTABLE, buffer, seconds);
    sha256("sha-extensions", IG_SHA256_SHA_EXTENSIONS, buffer, seconds);
    sha256("libcrypto", IG_SHA256_LIBCRYPTO, buffer, seconds);
    sha256("best", IG_SHA256_BEST, buffer, seconds);
    sha256("best-without-sha-extensions", IG_SHA256_BEST_WITHOUT_EXTENSIONS, buffer, seconds);
    crc("zlib-direct", -1, buffer, seconds);
    crc("zlib", IG_CRC32_ZLIB, buffer, seconds);
    crc("pclmul", IG_CRC32_PCLMUL, buffer, seconds);
    crc("vpclmul", IG_CRC32_VPCLMUL, buffer, seconds);
    crc("best", IG_CRC32_BEST, buffer, seconds);
    free(buffer);
    return 0;
}
