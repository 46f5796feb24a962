#ifndef GALLERY_CHECKSUM_H
#define GALLERY_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

/* CRC-32 as zlib's crc32(): continue `crc` over `len` bytes. Uses PCLMULQDQ where the CPU has
 * it (25 GB/s in cache with VPCLMULQDQ, 12 without, against about 3 for zlib), zlib otherwise.
 * `len` may be any size. */
uint32_t ig_crc32(uint32_t crc, const unsigned char *buf, size_t len);

#endif
