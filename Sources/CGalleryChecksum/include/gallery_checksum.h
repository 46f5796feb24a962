#ifndef GALLERY_CHECKSUM_H
#define GALLERY_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

/* CRC-32 as zlib's crc32(): continue `crc` over `len` bytes. Uses PCLMULQDQ where the CPU has
 * it (25 GB/s in cache with VPCLMULQDQ, 12 without, against about 3 for zlib), zlib otherwise.
 * `len` may be any size. */
uint32_t ig_crc32(uint32_t crc, const unsigned char *buf, size_t len);

/* SHA-256: the CPU's SHA extensions where it has them, plain C otherwise (or when `portable`
 * is set, which the tests use to check both). Any number of updates of any length. */
typedef struct {
    uint32_t state[8];
    uint64_t length;
    unsigned char buffer[64];
    size_t pending;
    int portable;
} ig_sha256;

void ig_sha256_init(ig_sha256 *hash, int portable);
void ig_sha256_update(ig_sha256 *hash, const unsigned char *data, size_t length);
/* The digest of everything given so far; the hash may go on being updated. */
void ig_sha256_final(const ig_sha256 *hash, unsigned char digest[32]);

/* SHA-1 of one buffer, for name-based UUIDs only. */
void ig_sha1(const unsigned char *data, size_t length, unsigned char digest[20]);

#endif
