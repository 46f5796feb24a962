#ifndef IMAGEGALLERY_ON_DEMAND_H
#define IMAGEGALLERY_ON_DEMAND_H

#include <stddef.h>
#include <stdint.h>

/// Libraries loaded when first needed, not linked: format 2.0's decoders (libavif and libheif
/// bring some thirty libraries of encoders with them), libarchive (with libxml2, ICU and
/// six compressors) and Little CMS (for the few images that carry a colour profile), which every start of the tool would otherwise map and relocate, for the
/// few commands that read an archive or a new image type. This file defines the functions
/// those callers use, under the libraries' own names, each forwarding to the library loaded
/// with dlopen. `ig_library_load` loads one library and says why it could not.

enum ig_library {
    IG_LIBRARY_WEBP = 0,
    IG_LIBRARY_GIF = 1,
    IG_LIBRARY_AVIF = 2,
    IG_LIBRARY_HEIF = 3,
    IG_LIBRARY_ARCHIVE = 4,
    IG_LIBRARY_LCMS2 = 5,
    /// libcrypto 3, for its SHA-256 (CGalleryChecksum's fastest path on most processors).
    IG_LIBRARY_CRYPTO = 6,
};

/// 1 when the library and every function its callers use are there (loaded once, on the
/// first call, from any thread); else 0, with `*reason` saying what is missing.
int ig_library_load(enum ig_library library, const char **reason);

/// libcrypto's SHA-256 over `blocks` whole 64-byte blocks, continuing `state` (the eight
/// words FIPS 180-4 calls H). Under a name of our own, not a trampoline named SHA256_Update: a
/// library linked beside us that calls libcrypto would otherwise reach this instead. Call
/// ig_library_load(IG_LIBRARY_CRYPTO, ...) first.
void ig_crypto_sha256_blocks(uint32_t state[8], const unsigned char *data, size_t blocks);

/// Registers our HEVC decoder with libheif (`handle`: libheif's, from dlopen): libde265 on
/// two worker threads, where libheif's own starts one. 1 when libheif took it. Called once,
/// when libheif is loaded.
int ig_hevc_decoder_register(void *handle);

/// Holds the pictures our HEVC decoder gives on this thread to at most `chroma`
/// (chroma_format_idc: 0 grey to 3 4:4:4) and `bits` a sample, what the caller admitted the
/// memory for; a picture with more is an error. -1: any.
void ig_hevc_decoder_expect(int chroma, int bits);

/// The worker threads of the HEVC decoders started on the calling thread from now on: -1 for
/// two, 0 for none (libde265 decodes on the calling thread), as when a caller decodes two
/// pictures at once.
void ig_hevc_decoder_threads(int count);

/// How many pictures our HEVC decoder has given libheif since the process started (tests
/// tell by it that libheif chose ours).
unsigned long ig_hevc_decoder_pictures(void);
/// Of those, the pictures decoded on the caller's thread, by a decoder without worker threads
/// (`ig_hevc_decoder_threads(0)`: a grid's tiles, two at once).
unsigned long ig_hevc_decoder_pictures_without_workers(void);

#endif
