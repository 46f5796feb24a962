/* Streaming PNG decoding behind setjmp: see image_codecs.h. */
#include "image_codecs.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ig_png_decoder {
    png_structp png;
    png_infop info;
    ig_png_limits limits;
    ig_png_row_callback row;
    void *context;

    /* Every byte libpng and zlib hold, so that a hostile file cannot make them allocate
     * past `limits.max_bytes` in any way libpng did not foresee. */
    uint64_t allocated;
    int allocation_refused;

    int status;
    int finished;
    int has_header;
    uint32_t width, height;
    int bit_depth, color_type, interlaced;
    uint32_t rows_done;
    size_t row_bytes;
    int pixel_bytes;          /* 4, or 8 when a 16-bit image keeps its 16 bits */
    uint8_t *assembly;        /* interlaced images with a row callback: the whole image */
    char message[256];
    char warning[160];        /* the first warning, which may explain a later error */
};

/* Blocks carry their size in front, so that free can subtract it. */
typedef union { size_t size; max_align_t align; } block_header;

static png_voidp counting_malloc(png_structp png, png_alloc_size_t size) {
    ig_png_decoder *decoder = png_get_mem_ptr(png);
    if (size > SIZE_MAX - sizeof(block_header)
        || decoder->allocated + size > decoder->limits.max_bytes) {
        decoder->allocation_refused = 1;
        return NULL;
    }
    block_header *block = malloc(sizeof(block_header) + size);
    if (block == NULL) return NULL;
    block->size = size;
    decoder->allocated += size;
    return block + 1;
}

static void counting_free(png_structp png, png_voidp pointer) {
    if (pointer == NULL) return;
    ig_png_decoder *decoder = png_get_mem_ptr(png);
    block_header *block = (block_header *)pointer - 1;
    decoder->allocated -= block->size;
    free(block);
}

static void fail(png_structp png, int status, const char *message) {
    ig_png_decoder *decoder = png_get_error_ptr(png);
    if (decoder->status == IG_PNG_OK) {
        decoder->status = status;
        snprintf(decoder->message, sizeof decoder->message, "%s", message);
    }
    png_longjmp(png, 1);
}

static void on_error(png_structp png, png_const_charp message) {
    ig_png_decoder *decoder = png_get_error_ptr(png);
    int status = IG_PNG_ERROR;
    if (decoder->allocation_refused) {
        status = IG_PNG_LIMIT;
        char text[256];
        snprintf(text, sizeof text, "decoding needs more than the memory limit of %llu bytes (%s)",
                 (unsigned long long)decoder->limits.max_bytes, message);
        fail(png, status, text);
    }
    if (strstr(message, "user limit") != NULL || strstr(message, "too large") != NULL) status = IG_PNG_LIMIT;
    /* png_check_IHDR warns what is wrong, then errors "Invalid IHDR data": a size past our
     * limits is a limit, not damage. */
    if (strstr(message, "Invalid IHDR") != NULL
        && (strstr(decoder->warning, "limit") != NULL || strstr(decoder->warning, "too large") != NULL)) {
        fail(png, IG_PNG_LIMIT, decoder->warning);
    }
    fail(png, status, message);
}

/* Warnings (a known-bad sRGB profile, say) are common in good files and never make the
 * decoder allocate or loop: they are not errors, except those about the image data itself
 * (too little of it, for one), which mean the pixels are not all there. Benign errors are
 * errors, see create. */
static void on_warning(png_structp png, png_const_charp message) {
    ig_png_decoder *decoder = png_get_error_ptr(png);
    if (decoder->warning[0] == 0) snprintf(decoder->warning, sizeof decoder->warning, "%s", message);
    if (strstr(message, "IDAT") != NULL || strstr(message, "image data") != NULL
        || strstr(message, "compressed data") != NULL) {
        fail(png, IG_PNG_ERROR, message);
    }
}

static void on_info(png_structp png, png_infop info) {
    ig_png_decoder *decoder = png_get_progressive_ptr(png);
    png_uint_32 width, height;
    int bit_depth, color_type, interlace;
    png_get_IHDR(png, info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    decoder->width = width;
    decoder->height = height;
    decoder->bit_depth = bit_depth;
    decoder->color_type = color_type;
    decoder->interlaced = interlace != PNG_INTERLACE_NONE;
    decoder->has_header = 1;

    uint64_t pixels = (uint64_t)width * height;
    if (pixels > decoder->limits.max_work_pixels) {
        char text[160];
        snprintf(text, sizeof text, "%u x %u is %llu pixels, past the limit of %llu decoded pixels", (unsigned)width,
                 (unsigned)height, (unsigned long long)pixels, (unsigned long long)decoder->limits.max_work_pixels);
        fail(png, IG_PNG_LIMIT, text);
    }
    /* Streamed rows are dropped as they pass: only an assembled or kept image is held whole. */
    int whole = decoder->limits.keeps_rows || (interlace != PNG_INTERLACE_NONE && decoder->row != NULL);
    uint64_t held = whole ? pixels : width;
    if (held > decoder->limits.max_pixels) {
        char text[160];
        snprintf(text, sizeof text, "%u x %u is %llu pixels, past the limit of %llu", (unsigned)width,
                 (unsigned)height, (unsigned long long)pixels, (unsigned long long)decoder->limits.max_pixels);
        fail(png, IG_PNG_LIMIT, text);
    }

    decoder->pixel_bytes = bit_depth == 16 && decoder->limits.keeps_16_bits ? 8 : 4;
    if (pixels * decoder->pixel_bytes > decoder->limits.max_output_bytes) {
        char text[200];
        snprintf(text, sizeof text, "a %u x %u image needs %llu bytes, past the memory limit of %llu",
                 (unsigned)width, (unsigned)height, (unsigned long long)(pixels * decoder->pixel_bytes),
                 (unsigned long long)decoder->limits.max_output_bytes);
        fail(png, IG_PNG_LIMIT, text);
    }

    png_set_expand(png);
    if (bit_depth == 16 && decoder->pixel_bytes == 4) png_set_scale_16(png);
    /* PNG's samples are big-endian; the caller reads 16-bit ones as the machine's. */
    if (decoder->pixel_bytes == 8) png_set_swap(png);
    if (!(color_type & PNG_COLOR_MASK_COLOR)) png_set_gray_to_rgb(png);
    if (!(color_type & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS))
        png_set_add_alpha(png, decoder->pixel_bytes == 8 ? 0xffff : 0xff, PNG_FILLER_AFTER);
    (void)png_set_interlace_handling(png);
    png_read_update_info(png, info);
    decoder->row_bytes = png_get_rowbytes(png, info);
    if (decoder->row_bytes != (size_t)width * decoder->pixel_bytes)
        fail(png, IG_PNG_ERROR, "unexpected row layout after expansion");

    if (decoder->interlaced && decoder->row != NULL) {
        uint64_t bytes = pixels * decoder->pixel_bytes;
        if (decoder->allocated + bytes > decoder->limits.max_bytes) {
            char text[200];
            snprintf(text, sizeof text, "an interlaced %u x %u image needs %llu bytes to assemble, past the "
                     "memory limit of %llu", (unsigned)width, (unsigned)height, (unsigned long long)bytes,
                     (unsigned long long)decoder->limits.max_bytes);
            fail(png, IG_PNG_LIMIT, text);
        }
        decoder->assembly = png_calloc(png, (png_alloc_size_t)bytes);
    }
}

static void on_row(png_structp png, png_bytep new_row, png_uint_32 row, int pass) {
    (void)pass;
    ig_png_decoder *decoder = png_get_progressive_ptr(png);
    if (new_row == NULL || row >= decoder->height) return;
    if (decoder->interlaced) {
        if (decoder->assembly != NULL)
            png_progressive_combine_row(png, decoder->assembly + (size_t)row * decoder->row_bytes, new_row);
        return;
    }
    decoder->rows_done = row + 1;
    if (decoder->row != NULL) decoder->row(decoder->context, row, decoder->width, new_row);
}

static void on_end(png_structp png, png_infop info) {
    (void)info;
    ig_png_decoder *decoder = png_get_progressive_ptr(png);
    if (decoder->interlaced) {
        /* libpng reaches IEND only after the last pass's last row. */
        for (uint32_t row = 0; row < decoder->height; row++) {
            if (decoder->assembly != NULL)
                decoder->row(decoder->context, row, decoder->width, decoder->assembly + (size_t)row * decoder->row_bytes);
        }
        decoder->rows_done = decoder->height;
    }
    decoder->finished = 1;
}

ig_png_decoder *ig_png_decoder_create(ig_png_limits limits, ig_png_row_callback row, void *context) {
    ig_png_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return NULL;
    decoder->limits = limits;
    decoder->row = row;
    decoder->context = context;
    decoder->png = png_create_read_struct_2(PNG_LIBPNG_VER_STRING, decoder, on_error, on_warning, decoder,
                                            counting_malloc, counting_free);
    if (decoder->png == NULL) {
        free(decoder);
        return NULL;
    }
    if (setjmp(png_jmpbuf(decoder->png))) {
        png_destroy_read_struct(&decoder->png, &decoder->info, NULL);
        free(decoder);
        return NULL;
    }
    decoder->info = png_create_info_struct(decoder->png);
    if (decoder->info == NULL) {
        png_destroy_read_struct(&decoder->png, NULL, NULL);
        free(decoder);
        return NULL;
    }
    png_structp png = decoder->png;
    /* A huge tEXt length is only a benign error by default: libpng would carry on. */
    png_set_benign_errors(png, 0);
    png_set_user_limits(png, limits.max_width, limits.max_height);
    png_set_chunk_malloc_max(png, (png_alloc_size_t)limits.max_chunk_bytes);
    png_set_chunk_cache_max(png, 1000);
    png_set_crc_action(png, PNG_CRC_ERROR_QUIT, PNG_CRC_ERROR_QUIT);
    /* Every ancillary chunk but tRNS is skipped unread: text, profiles and the rest cannot
     * matter to the pixels we produce, and skipping them closes the text and iCCP bombs. */
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, -1);
    png_set_progressive_read_fn(png, decoder, on_info, on_row, on_end);
    return decoder;
}

void ig_png_decoder_destroy(ig_png_decoder *decoder) {
    if (decoder == NULL) return;
    if (decoder->assembly != NULL) png_free(decoder->png, decoder->assembly);
    png_destroy_read_struct(&decoder->png, &decoder->info, NULL);
    free(decoder);
}

int ig_png_decoder_feed(ig_png_decoder *decoder, const uint8_t *bytes, size_t count) {
    if (decoder->status != IG_PNG_OK || decoder->finished || count == 0) return decoder->status;
    if (setjmp(png_jmpbuf(decoder->png))) {
        if (decoder->status == IG_PNG_OK) {
            decoder->status = IG_PNG_ERROR;
            snprintf(decoder->message, sizeof decoder->message, "libpng stopped");
        }
        return decoder->status;
    }
    png_process_data(decoder->png, decoder->info, (png_bytep)bytes, count);
    return decoder->status;
}

int ig_png_decoder_finished(const ig_png_decoder *decoder) { return decoder->finished; }
int ig_png_decoder_has_header(const ig_png_decoder *decoder) { return decoder->has_header; }
uint32_t ig_png_decoder_width(const ig_png_decoder *decoder) { return decoder->width; }
uint32_t ig_png_decoder_height(const ig_png_decoder *decoder) { return decoder->height; }
int ig_png_decoder_bit_depth(const ig_png_decoder *decoder) { return decoder->bit_depth; }
int ig_png_decoder_color_type(const ig_png_decoder *decoder) { return decoder->color_type; }
int ig_png_decoder_interlaced(const ig_png_decoder *decoder) { return decoder->interlaced; }
uint32_t ig_png_decoder_rows_done(const ig_png_decoder *decoder) { return decoder->rows_done; }
int ig_png_decoder_pixel_bytes(const ig_png_decoder *decoder) { return decoder->pixel_bytes ? decoder->pixel_bytes : 4; }
const char *ig_png_decoder_message(const ig_png_decoder *decoder) { return decoder->message; }
