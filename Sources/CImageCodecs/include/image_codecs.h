#ifndef IMAGE_CODECS_H
#define IMAGE_CODECS_H

#include <stddef.h>
#include <stdint.h>

/* A streaming PNG decoder over libpng's progressive reader. libpng reports errors by longjmp,
 * which Swift cannot catch; every libpng call happens inside this file, behind setjmp, and
 * comes back as a return code and a message.
 *
 * Output is always 8-bit RGBA: palettes and grey are expanded, tRNS becomes alpha, 16-bit
 * samples are scaled (not truncated). Rows go to `row` in top-to-bottom order, each exactly
 * once; for an interlaced image they are assembled in a full buffer first (counted against
 * `max_bytes`). With `row` NULL the pixels are checked and discarded, in one row of memory. */
typedef struct ig_png_decoder ig_png_decoder;

/* Called once per output row: `pixels` holds width × 4 bytes. Must not call libpng. */
typedef void (*ig_png_row_callback)(void *context, uint32_t row, uint32_t width, const uint8_t *pixels);
/* The bytes of a pixel in the rows the callback is given: 4, or 8 for 16-bit rows. */

typedef struct {
    uint32_t max_width;      /* png_set_user_limits */
    uint32_t max_height;
    uint64_t max_pixels;     /* pixels held at once: the whole image when it is interlaced and
                                assembled or every row is kept, else one row; checked from IHDR */
    uint64_t max_work_pixels;/* width × height: the work of decoding, checked from IHDR */
    int keeps_rows;          /* the caller keeps every row (the whole image is held) */
    uint64_t max_bytes;      /* memory for an interlaced image's assembly buffer */
    uint64_t max_chunk_bytes;/* png_set_chunk_malloc_max */
    uint64_t max_output_bytes;/* width × height × bytes a pixel, when the caller keeps every row */
    int keeps_16_bits;       /* a 16-bit image's rows as 16-bit RGBA in the machine's byte order
                                (8 bytes a pixel), for a colour conversion that must not lose
                                its precision first; 8-bit images are unchanged */
} ig_png_limits;

enum {
    IG_PNG_OK = 0,        /* consumed; wants more data, or done */
    IG_PNG_ERROR = 1,     /* the data is not a decodable PNG (see message) */
    IG_PNG_LIMIT = 2,     /* the image is past a limit (see message) */
    IG_PNG_NOMEM = 3,
};

ig_png_decoder *ig_png_decoder_create(ig_png_limits limits, ig_png_row_callback row, void *context);
void ig_png_decoder_destroy(ig_png_decoder *decoder);

/* Feeds the next bytes of the file. After an error every further call returns it again. */
int ig_png_decoder_feed(ig_png_decoder *decoder, const uint8_t *bytes, size_t count);

/* True once IEND has been read. */
int ig_png_decoder_finished(const ig_png_decoder *decoder);

/* True once IHDR has been read; then the fields below are valid. */
int ig_png_decoder_has_header(const ig_png_decoder *decoder);
uint32_t ig_png_decoder_width(const ig_png_decoder *decoder);
uint32_t ig_png_decoder_height(const ig_png_decoder *decoder);
int ig_png_decoder_bit_depth(const ig_png_decoder *decoder);
int ig_png_decoder_color_type(const ig_png_decoder *decoder);
int ig_png_decoder_interlaced(const ig_png_decoder *decoder);
/* Rows delivered so far. */
uint32_t ig_png_decoder_rows_done(const ig_png_decoder *decoder);
int ig_png_decoder_pixel_bytes(const ig_png_decoder *decoder);

/* The first error or warning-turned-error, NUL-terminated; empty when none. */
const char *ig_png_decoder_message(const ig_png_decoder *decoder);

/* A JPEG decoded a few rows at a time through libjpeg(-turbo)'s scanline reader, so that the
 * rows can be filtered while the rest decode. libjpeg reports errors by longjmp too; every
 * libjpeg call is in jpeg_decoder.c, behind setjmp.
 *
 * The settings are TurboJPEG's defaults (accurate integer IDCT, fancy upsampling), so the
 * pixels are those tjDecompress2 gives. A warning (corrupt data, a premature end) stops the
 * decode as an error, as TJFLAG_STOPONWARNING does: a thumbnailer must not spend time on
 * damaged data. libjpeg's memory cap is JPEGMEM, read when the decoder starts. */

/* Called once per output row, top to bottom: `pixels` holds `width` × 4 bytes, RGBA, or
 * CMYK as stored (Adobe's inverted ink) when `cmyk` is set; the callee may change them. */
typedef void (*ig_jpeg_row_callback)(void *context, uint8_t *pixels, uint32_t width, int cmyk);

/* Rows asked of libjpeg at once, and held while they are handed on: more than any upsampler
 * gives per call, so that each call returns what it has. */
enum { IG_JPEG_ROWS_AT_ONCE = 16 };

enum {
    IG_JPEG_OK = 0,
    IG_JPEG_ERROR = 1,     /* libjpeg's error or warning, in `message` */
    IG_JPEG_MISMATCH = 2,  /* the frame libjpeg read is not `width` × `height` at the scale */
};

/* Decodes `bytes` at `scale_numerator`/8 (1…8), expecting an output of `width` × `height`;
 * `message` (JMSG_LENGTH_MAX, 200 bytes, is enough) gets the first error. */
int ig_jpeg_decode_rows(const uint8_t *bytes, size_t count, int scale_numerator, uint32_t width, uint32_t height,
                        ig_jpeg_row_callback row, void *context, char *message, size_t message_size);

/* Encoding: none here (GalleryImaging writes PNG itself, with zlib). */

#endif
