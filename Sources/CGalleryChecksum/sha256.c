/* SHA-256 (FIPS 180-4) for content addressing: every blob a gallery holds is named by it.
 * It lives here, not in swift-crypto, so that the reading modules need neither BoringSSL nor
 * the Foundation that swift-crypto imports on Linux (and, through it, ICU): the confined
 * thumbnailer links them.
 *
 * With the x86 SHA extensions our code runs as fast as OpenSSL's (Benchmarks/RESULTS.md,
 * section ac.2). Without them, long runs go to libcrypto, loaded when first worth it: its
 * AVX2 assembly is about twice as fast as plain C there; plain C takes short inputs, and
 * everything where libcrypto cannot be loaded. The padding and length stay here on every path. */
#include "gallery_checksum.h"
#include "on_demand.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <immintrin.h>

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t ror(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static inline uint32_t load_be32(const unsigned char *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void blocks_portable(uint32_t state[8], const unsigned char *data, size_t blocks) {
    uint32_t w[64];
    while (blocks--) {
        for (int t = 0; t < 16; t++) w[t] = load_be32(data + 4 * t);
        for (int t = 16; t < 64; t++) {
            uint32_t s0 = ror(w[t - 15], 7) ^ ror(w[t - 15], 18) ^ (w[t - 15] >> 3);
            uint32_t s1 = ror(w[t - 2], 17) ^ ror(w[t - 2], 19) ^ (w[t - 2] >> 10);
            w[t] = w[t - 16] + s0 + w[t - 7] + s1;
        }
        uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
        uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
        for (int t = 0; t < 64; t++) {
            uint32_t t1 = h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t];
            uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
            h = g; g = f; f = e; e = d + t1;
            d = c; c = b; b = a; a = t1 + t2;
        }
        state[0] += a; state[1] += b; state[2] += c; state[3] += d;
        state[4] += e; state[5] += f; state[6] += g; state[7] += h;
        data += 64;
    }
}

/* The SHA extensions keep the state as ABEF and CDGH; each sha256rnds2 does two rounds and
 * sha256msg1/msg2 extend the message schedule four words at a time. */
__attribute__((target("sha,sse4.1,ssse3")))
static void blocks_sha_extensions(uint32_t state[8], const unsigned char *data, size_t blocks) {
    const __m128i byte_swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    __m128i dcba = _mm_loadu_si128((const __m128i *)&state[0]);
    __m128i hgfe = _mm_loadu_si128((const __m128i *)&state[4]);
    __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
    __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
    __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
    __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);
    while (blocks--) {
        const __m128i abef_before = abef, cdgh_before = cdgh;
        __m128i w[4];
        for (int i = 0; i < 4; i++)
            w[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * i)), byte_swap);
#pragma GCC unroll 16
        for (int i = 0; i < 16; i++) {
            __m128i message = _mm_add_epi32(w[i & 3], _mm_loadu_si128((const __m128i *)&K[4 * i]));
            /* Each call returns the new ABEF; the old ABEF is the new CDGH, so two calls
             * leave both names right. */
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, message);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(message, 0x0E));
            if (i < 12) {
                __m128i next = _mm_sha256msg1_epu32(w[i & 3], w[(i + 1) & 3]);
                next = _mm_add_epi32(next, _mm_alignr_epi8(w[(i + 3) & 3], w[(i + 2) & 3], 4));
                w[i & 3] = _mm_sha256msg2_epu32(next, w[(i + 3) & 3]);
            }
        }
        abef = _mm_add_epi32(abef, abef_before);
        cdgh = _mm_add_epi32(cdgh, cdgh_before);
        data += 64;
    }
    __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    _mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(feba, dchg, 0xF0));
    _mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(dchg, feba, 8));
}

static int use_extensions(void) {
    static int cached = -1;
    if (cached < 0) {
        __builtin_cpu_init();
        cached = __builtin_cpu_supports("sha") && __builtin_cpu_supports("sse4.1")
            && __builtin_cpu_supports("ssse3");
    }
    return cached;
}

int ig_sha256_path_available(enum ig_sha256_path path, const char **reason) {
    static const char *const no_extensions = "this processor has no SHA extensions (sha_ni in /proc/cpuinfo)";
    switch (path) {
    case IG_SHA256_BEST:
    case IG_SHA256_PORTABLE:
    case IG_SHA256_BEST_WITHOUT_EXTENSIONS:
        return 1;
    case IG_SHA256_SHA_EXTENSIONS:
        if (!use_extensions() && reason != NULL) *reason = no_extensions;
        return use_extensions();
    case IG_SHA256_LIBCRYPTO:
        return ig_library_load(IG_LIBRARY_CRYPTO, reason);
    }
    if (reason != NULL) *reason = "no such path";
    return 0;
}

/* How much a process hashes before BEST loads libcrypto: loading it costs about 1 ms, which
 * its speed repays within about 0.4 MB. Counted across the process, since a gallery's blobs
 * are many small hashes. */
enum { libcrypto_after_bytes = 1 << 20, libcrypto_least_blocks = 4 };
static uint64_t hashed_bytes;

static int best_forced = -1;
static pthread_once_t forced_once = PTHREAD_ONCE_INIT;

static void read_forced(void) {
    const char *name = getenv("IMAGEGALLERY_SHA256");
    int path = IG_SHA256_BEST;
    if (name != NULL && strcmp(name, "portable") == 0) path = IG_SHA256_PORTABLE;
    else if (name != NULL && strcmp(name, "sha-extensions") == 0) path = IG_SHA256_SHA_EXTENSIONS;
    else if (name != NULL && strcmp(name, "libcrypto") == 0) path = IG_SHA256_LIBCRYPTO;
    else if (name != NULL && strcmp(name, "without-sha-extensions") == 0) path = IG_SHA256_BEST_WITHOUT_EXTENSIONS;
    best_forced = ig_sha256_path_available(path, NULL) ? path : IG_SHA256_BEST;
}

static int use_libcrypto(size_t count) {
    if (count < libcrypto_least_blocks) return 0;
    if (__atomic_load_n(&hashed_bytes, __ATOMIC_RELAXED) < libcrypto_after_bytes) {
        __atomic_fetch_add(&hashed_bytes, (uint64_t)count * 64, __ATOMIC_RELAXED);
        return 0;
    }
    return ig_library_load(IG_LIBRARY_CRYPTO, NULL);
}

static void blocks(ig_sha256 *hash, const unsigned char *data, size_t count) {
    int path = hash->path;
    if (path == IG_SHA256_BEST && use_extensions()) path = IG_SHA256_SHA_EXTENSIONS;
    else if (path == IG_SHA256_BEST || path == IG_SHA256_BEST_WITHOUT_EXTENSIONS)
        path = use_libcrypto(count) ? IG_SHA256_LIBCRYPTO : IG_SHA256_PORTABLE;
    switch (path) {
    case IG_SHA256_LIBCRYPTO: ig_crypto_sha256_blocks(hash->state, data, count); break;
    case IG_SHA256_SHA_EXTENSIONS: blocks_sha_extensions(hash->state, data, count); break;
    default: blocks_portable(hash->state, data, count); break;
    }
}

void ig_sha256_init(ig_sha256 *hash, enum ig_sha256_path path) {
    static const uint32_t initial[8] = {
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    };
    memcpy(hash->state, initial, sizeof initial);
    hash->length = 0;
    hash->pending = 0;
    if (path == IG_SHA256_BEST) {
        pthread_once(&forced_once, read_forced);
        path = best_forced;
    }
    hash->path = path;
}

void ig_sha256_update(ig_sha256 *hash, const unsigned char *data, size_t length) {
    hash->length += length;
    if (hash->pending) {
        size_t take = 64 - hash->pending < length ? 64 - hash->pending : length;
        memcpy(hash->buffer + hash->pending, data, take);
        hash->pending += take;
        data += take;
        length -= take;
        if (hash->pending < 64) return;
        blocks(hash, hash->buffer, 1);
        hash->pending = 0;
    }
    if (length >= 64) {
        blocks(hash, data, length / 64);
        data += length & ~(size_t)63;
        length &= 63;
    }
    memcpy(hash->buffer, data, length);
    hash->pending = length;
}

void ig_sha256_final(const ig_sha256 *hash, unsigned char digest[32]) {
    ig_sha256 last = *hash;
    uint64_t bits = last.length * 8;
    unsigned char tail[72] = {0x80};
    size_t padding = (last.pending < 56 ? 56 : 120) - last.pending;
    for (int i = 0; i < 8; i++) tail[padding + i] = (unsigned char)(bits >> (56 - 8 * i));
    ig_sha256_update(&last, tail, padding + 8);
    for (int i = 0; i < 8; i++) {
        digest[4 * i] = (unsigned char)(last.state[i] >> 24);
        digest[4 * i + 1] = (unsigned char)(last.state[i] >> 16);
        digest[4 * i + 2] = (unsigned char)(last.state[i] >> 8);
        digest[4 * i + 3] = (unsigned char)last.state[i];
    }
}
