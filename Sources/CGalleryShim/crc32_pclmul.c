/* CRC-32 (ISO-HDLC, as zlib and ZIP use it) by carry-less multiplication: four 128-bit lanes
 * fold 64 bytes per step, then a Barrett reduction gives the 32-bit remainder. This is the
 * method of Intel's "Fast CRC Computation for Generic Polynomials Using PCLMULQDQ"; the
 * constants are x^k mod P(x) for the bit-reflected polynomial 0x1DB710641. zlib handles
 * short inputs, the tail, and machines without PCLMULQDQ. */
#include "gallery_shim.h"

#include <zlib.h>

#if defined(__x86_64__)
#include <immintrin.h>

__attribute__((target("pclmul,sse4.1")))
static uint32_t crc32_fold(uint32_t state, const unsigned char *buf, size_t len) {
    /* len is a multiple of 16 and at least 64; state is the raw register (no inversion). */
    const __m128i k1k2 = _mm_set_epi64x(0x1c6e41596LL, 0x154442bd4LL);
    const __m128i k3k4 = _mm_set_epi64x(0x0ccaa009eLL, 0x1751997d0LL);
    const __m128i k5 = _mm_set_epi64x(0, 0x163cd6124LL);
    const __m128i poly = _mm_set_epi64x(0x1f7011641LL, 0x1db710641LL);
    const __m128i mask32 = _mm_set_epi32(0, 0, 0, -1);

    __m128i x1 = _mm_loadu_si128((const __m128i *)(buf + 0));
    __m128i x2 = _mm_loadu_si128((const __m128i *)(buf + 16));
    __m128i x3 = _mm_loadu_si128((const __m128i *)(buf + 32));
    __m128i x4 = _mm_loadu_si128((const __m128i *)(buf + 48));
    x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128((int)state));
    buf += 64;
    len -= 64;

    while (len >= 64) {
        __m128i t1 = _mm_clmulepi64_si128(x1, k1k2, 0x00);
        __m128i t2 = _mm_clmulepi64_si128(x2, k1k2, 0x00);
        __m128i t3 = _mm_clmulepi64_si128(x3, k1k2, 0x00);
        __m128i t4 = _mm_clmulepi64_si128(x4, k1k2, 0x00);
        x1 = _mm_clmulepi64_si128(x1, k1k2, 0x11);
        x2 = _mm_clmulepi64_si128(x2, k1k2, 0x11);
        x3 = _mm_clmulepi64_si128(x3, k1k2, 0x11);
        x4 = _mm_clmulepi64_si128(x4, k1k2, 0x11);
        x1 = _mm_xor_si128(_mm_xor_si128(x1, t1), _mm_loadu_si128((const __m128i *)(buf + 0)));
        x2 = _mm_xor_si128(_mm_xor_si128(x2, t2), _mm_loadu_si128((const __m128i *)(buf + 16)));
        x3 = _mm_xor_si128(_mm_xor_si128(x3, t3), _mm_loadu_si128((const __m128i *)(buf + 32)));
        x4 = _mm_xor_si128(_mm_xor_si128(x4, t4), _mm_loadu_si128((const __m128i *)(buf + 48)));
        buf += 64;
        len -= 64;
    }

    /* Four lanes into one. */
    __m128i t;
    t = _mm_clmulepi64_si128(x1, k3k4, 0x00);
    x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, k3k4, 0x11), t), x2);
    t = _mm_clmulepi64_si128(x1, k3k4, 0x00);
    x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, k3k4, 0x11), t), x3);
    t = _mm_clmulepi64_si128(x1, k3k4, 0x00);
    x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, k3k4, 0x11), t), x4);

    while (len >= 16) {
        t = _mm_clmulepi64_si128(x1, k3k4, 0x00);
        x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, k3k4, 0x11), t),
                           _mm_loadu_si128((const __m128i *)buf));
        buf += 16;
        len -= 16;
    }

    /* 128 bits to 64, appending 32 zero bits. */
    t = _mm_clmulepi64_si128(k3k4, x1, 0x01);
    x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), t);
    /* 64 to 32 by one more fold. */
    __m128i x2b = _mm_srli_si128(x1, 4);
    x1 = _mm_clmulepi64_si128(_mm_and_si128(x1, mask32), k5, 0x00);
    x1 = _mm_xor_si128(x1, x2b);
    /* Barrett reduction to the 32-bit remainder. */
    x2b = x1;
    x1 = _mm_clmulepi64_si128(_mm_and_si128(x1, mask32), poly, 0x10);
    x1 = _mm_clmulepi64_si128(_mm_and_si128(x1, mask32), poly, 0x00);
    x1 = _mm_xor_si128(x1, x2b);
    return (uint32_t)_mm_extract_epi32(x1, 1);
}

static int has_pclmul(void) {
    static int cached = -1;
    if (cached < 0) {
        __builtin_cpu_init();
        cached = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
    }
    return cached;
}
#endif

uint32_t ig_crc32(uint32_t crc, const unsigned char *buf, size_t len) {
#if defined(__x86_64__)
    if (len >= 64 && has_pclmul()) {
        size_t folded = len & ~(size_t)15;
        crc = ~crc32_fold(~crc, buf, folded);
        buf += folded;
        len -= folded;
    }
#endif
    return (uint32_t)crc32(crc, buf, (uInt)len);
}
