/* SHA-1 (FIPS 180-4), for name-based UUIDs (RFC 9562, version 5) only: a few dozen bytes per
 * id, never for integrity. Plain C: see sha256.c for why it is not swift-crypto's. */
#include "gallery_checksum.h"

#include <string.h>

static inline uint32_t rol(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

static void block(uint32_t state[5], const unsigned char *data) {
    uint32_t w[80];
    for (int t = 0; t < 16; t++)
        w[t] = (uint32_t)data[4 * t] << 24 | (uint32_t)data[4 * t + 1] << 16 | (uint32_t)data[4 * t + 2] << 8 | data[4 * t + 3];
    for (int t = 16; t < 80; t++) w[t] = rol(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3], e = state[4];
    for (int t = 0; t < 80; t++) {
        uint32_t f, k;
        if (t < 20) { f = (b & c) | (~b & d); k = 0x5a827999; }
        else if (t < 40) { f = b ^ c ^ d; k = 0x6ed9eba1; }
        else if (t < 60) { f = (b & c) | (b & d) | (c & d); k = 0x8f1bbcdc; }
        else { f = b ^ c ^ d; k = 0xca62c1d6; }
        uint32_t next = rol(a, 5) + f + e + k + w[t];
        e = d; d = c; c = rol(b, 30); b = a; a = next;
    }
    state[0] += a; state[1] += b; state[2] += c; state[3] += d; state[4] += e;
}

void ig_sha1(const unsigned char *data, size_t length, unsigned char digest[20]) {
    uint32_t state[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};
    size_t whole = length / 64;
    for (size_t i = 0; i < whole; i++) block(state, data + 64 * i);
    unsigned char tail[128] = {0};
    size_t rest = length - 64 * whole;
    memcpy(tail, data + 64 * whole, rest);
    tail[rest] = 0x80;
    size_t end = rest < 56 ? 64 : 128;
    uint64_t bits = (uint64_t)length * 8;
    for (int i = 0; i < 8; i++) tail[end - 1 - i] = (unsigned char)(bits >> (8 * i));
    block(state, tail);
    if (end == 128) block(state, tail + 64);
    for (int i = 0; i < 5; i++) {
        digest[4 * i] = (unsigned char)(state[i] >> 24);
        digest[4 * i + 1] = (unsigned char)(state[i] >> 16);
        digest[4 * i + 2] = (unsigned char)(state[i] >> 8);
        digest[4 * i + 3] = (unsigned char)state[i];
    }
}
