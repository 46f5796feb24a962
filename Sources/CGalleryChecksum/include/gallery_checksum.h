#ifndef GALLERY_CHECKSUM_H
#define GALLERY_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

/* The ways CRC-32 can be computed here. BEST picks the fastest the processor has; the others
 * force one, so that the tests hold each to zlib's result. */
enum ig_crc32_path {
    IG_CRC32_BEST = 0,
    IG_CRC32_ZLIB = 1,
    IG_CRC32_PCLMUL = 2,
    IG_CRC32_VPCLMUL = 3,
};

/* CRC-32 as zlib's crc32(): continue `crc` over `len` bytes. Uses VPCLMULQDQ or PCLMULQDQ where
 * the CPU has them (25 GB/s in cache with VPCLMULQDQ, 12 without, against about 3 for zlib),
 * zlib otherwise. `len` may be any size. */
uint32_t ig_crc32(uint32_t crc, const unsigned char *buf, size_t len);

/* The same by `path`, which must be available. */
uint32_t ig_crc32_by(enum ig_crc32_path path, uint32_t crc, const unsigned char *buf, size_t len);

/* 1 when this processor can take `path`; else 0, with `*reason` saying what it lacks. */
int ig_crc32_path_available(enum ig_crc32_path path, const char **reason);

/* The ways SHA-256 can be computed here. BEST: the CPU's SHA extensions where it has them
 * (as fast as OpenSSL's own code for them); else libcrypto's (OpenSSL 3's AVX2 or AVX code,
 * loaded once a process has hashed a megabyte, so that small hashes never pay its load) for
 * long runs, plain C for short ones and where libcrypto is missing. BEST_WITHOUT_EXTENSIONS
 * is BEST as it runs on a processor without the SHA extensions, for the tests and benchmarks
 * of a machine that has them. The environment variable IMAGEGALLERY_SHA256 (portable,
 * sha-extensions, libcrypto or without-sha-extensions) forces one path on BEST where it is
 * available. */
enum ig_sha256_path {
    IG_SHA256_BEST = 0,
    IG_SHA256_PORTABLE = 1,
    IG_SHA256_SHA_EXTENSIONS = 2,
    IG_SHA256_LIBCRYPTO = 3,
    IG_SHA256_BEST_WITHOUT_EXTENSIONS = 4,
};

/* Any number of updates of any length. */
typedef struct {
    uint32_t state[8];
    uint64_t length;
    unsigned char buffer[64];
    size_t pending;
    int path;
} ig_sha256;

/* 1 when `path` can run here; else 0, with `*reason` saying why not. */
int ig_sha256_path_available(enum ig_sha256_path path, const char **reason);

/* Starts a hash by `path`, which must be available. */
void ig_sha256_init(ig_sha256 *hash, enum ig_sha256_path path);
void ig_sha256_update(ig_sha256 *hash, const unsigned char *data, size_t length);
/* The digest of everything given so far; the hash may go on being updated. */
void ig_sha256_final(const ig_sha256 *hash, unsigned char digest[32]);

/* SHA-1 of one buffer, for name-based UUIDs only. */
void ig_sha1(const unsigned char *data, size_t length, unsigned char digest[20]);

#endif
