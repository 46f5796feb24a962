/* How long the manifest of a gallery takes to inflate: zlib in 256 KiB pieces, as a streamed
 * entry is read (ZipArchive.read), against libdeflate in one call over the whole buffer
 * (ZipArchive.inflateWhole), each followed by the same CRC-32 of the output (zlib's).
 * Rounds are interleaved; the medians are printed. Benchmarks/RESULTS.md, ac.3.8.
 *
 *   cc -O2 -o .build-bench/inflate-speed Benchmarks/inflate-speed/inflate-speed.c -lz -ldeflate
 *   .build-bench/inflate-speed .build-bench/work/g10k.imagegallery [rounds]
 */
#include <libdeflate.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static unsigned u16(const unsigned char *p) { return p[0] | p[1] << 8; }
static uint32_t u32(const unsigned char *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: inflate-speed GALLERY [rounds]\n"); return 64; }
    int rounds = argc > 2 ? atoi(argv[2]) : 41;
    FILE *file = fopen(argv[1], "rb");
    if (!file) { perror(argv[1]); return 66; }
    /* The end record (no comment: our writer's), then the central directory. */
    unsigned char end[22];
    fseek(file, -22, SEEK_END);
    if (fread(end, 1, 22, file) != 22 || u32(end) != 0x06054b50) { fprintf(stderr, "no plain end record\n"); return 65; }
    uint32_t size = u32(end + 12), offset = u32(end + 16);
    unsigned char *central = malloc(size);
    fseek(file, offset, SEEK_SET);
    if (fread(central, 1, size, file) != size) { fprintf(stderr, "short central directory\n"); return 65; }
    uint32_t local = 0, compressed = 0, uncompressed = 0;
    int found = 0;
    for (uint32_t at = 0; at + 46 <= size && u32(central + at) == 0x02014b50;) {
        unsigned name = u16(central + at + 28), extra = u16(central + at + 30), comment = u16(central + at + 32);
        if (name == 13 && memcmp(central + at + 46, "manifest.json", 13) == 0) {
            compressed = u32(central + at + 20);
            uncompressed = u32(central + at + 24);
            local = u32(central + at + 42);
            found = 1;
            break;
        }
        at += 46 + name + extra + comment;
    }
    if (!found) { fprintf(stderr, "no manifest.json\n"); return 65; }
    unsigned char header[30];
    fseek(file, local, SEEK_SET);
    if (fread(header, 1, 30, file) != 30) return 65;
    fseek(file, local + 30 + u16(header + 26) + u16(header + 28), SEEK_SET);
    unsigned char *input = malloc(compressed), *output = malloc(uncompressed), *piece = malloc(256 << 10);
    if (fread(input, 1, compressed, file) != compressed) return 65;

    double *zlib_ms = calloc(rounds, sizeof(double)), *whole_ms = calloc(rounds, sizeof(double));
    for (int round = 0; round < rounds; round++) {
        double start = now_ms();
        z_stream stream;
        memset(&stream, 0, sizeof stream);
        inflateInit2(&stream, -15);
        stream.next_in = input;
        stream.avail_in = compressed;
        uLong crc = crc32(0, NULL, 0);
        int status;
        do {
            stream.next_out = piece;
            stream.avail_out = 256 << 10;
            status = inflate(&stream, Z_NO_FLUSH);
            crc = crc32(crc, piece, (256 << 10) - stream.avail_out);
        } while (status == Z_OK);
        inflateEnd(&stream);
        zlib_ms[round] = now_ms() - start;
        if (status != Z_STREAM_END || stream.total_out != uncompressed) { fprintf(stderr, "zlib failed\n"); return 65; }

        start = now_ms();
        struct libdeflate_decompressor *decompressor = libdeflate_alloc_decompressor();
        size_t used = 0, produced = 0;
        int result = libdeflate_deflate_decompress_ex(decompressor, input, compressed, output, uncompressed, &used, &produced);
        libdeflate_free_decompressor(decompressor);
        uLong whole_crc = crc32(0, output, produced);
        whole_ms[round] = now_ms() - start;
        if (result != LIBDEFLATE_SUCCESS || produced != uncompressed || whole_crc != crc) { fprintf(stderr, "libdeflate failed\n"); return 65; }
    }
    qsort(zlib_ms, rounds, sizeof(double), compare);
    qsort(whole_ms, rounds, sizeof(double), compare);
    printf("manifest.json: %u bytes deflated to %u; %d rounds, medians\n", uncompressed, compressed, rounds);
    printf("zlib, 256 KiB pieces:      %.2f ms\n", zlib_ms[rounds / 2]);
    printf("libdeflate, whole buffer:  %.2f ms (%.2f x)\n", whole_ms[rounds / 2], whole_ms[rounds / 2] / zlib_ms[rounds / 2]);
    return 0;
}
