import GalleryConvert
import GalleryFormat
import GalleryImageHeaders
import GalleryImaging
import GallerySystem

/// The bodies of the fuzz targets. Each bounds what it reads the way the command that meets
/// such bytes does, so that a report is a bug a user could meet.
enum FuzzEntries {
    static func container(_ bytes: UnsafeRawBufferPointer) -> FuzzOutcome {
        onFile(bytes) { file in
            let archive = try ZipArchive(collectingProblemsOf: file)
            var outcome = archive.layoutDiagnostics().isEmpty ? FuzzOutcome.accepted : .refused
            for entry in archive.entries.prefix(64) where (try? archive.readAll(entry, limit: 1 << 20)) == nil {
                outcome = .refused
            }
            return outcome
        }
    }

    static func manifest(_ bytes: UnsafeRawBufferPointer) -> FuzzOutcome {
        let decoding = Manifest.decode(Array(bytes))
        guard let gallery = decoding.gallery, decoding.firstError == nil else { return .refused }
        // What a writer writes of an accepted manifest, members it kept included, reads back to
        // the same bytes (format section 8): a save never loses or changes what it kept.
        let written = Manifest.encode(gallery)
        let again = try? Manifest.decodeOrThrow(written).0
        precondition(again.map(Manifest.encode) == written, "a manifest written from an accepted one does not read back to the same bytes")
        return .accepted
    }

    static func validator(_ bytes: UnsafeRawBufferPointer) -> FuzzOutcome {
        onFile(bytes) { file in
            var options = ValidationOptions(pixelChecker: ImagePixelChecker())
            // One thread per input: threads would only add cost to every run.
            options.readsEntriesInParallel = false
            return GalleryValidator.validate(file: file, options: options).isValid ? .accepted : .refused
        }
    }

    static func jpeg(_ bytes: UnsafeRawBufferPointer) -> FuzzOutcome {
        let verified = (try? JPEGDecoder.verify(bytes, limits: decodeLimits)) != nil
        let decoded = (try? JPEGDecoder.decode(bytes, covering: (width: 64, height: 64), limits: decodeLimits)) != nil
        return verified && decoded ? .accepted : .refused
    }

    static func png(_ bytes: UnsafeRawBufferPointer) -> FuzzOutcome {
        (try? PNGDecoder.decode(Array(bytes), limits: decodeLimits)) != nil ? .accepted : .refused
    }

    static func thumbnail(_ bytes: UnsafeRawBufferPointer) -> FuzzOutcome {
        onFile(bytes) { file in
            let bitmap = try GalleryThumbnail.bitmap(ofGalleryAt: file.path, longSide: 128)
            return bitmap.png().isEmpty ? .refused : .accepted
        }
    }

    static func archive(_ bytes: UnsafeRawBufferPointer) -> FuzzOutcome {
        var limits = ArchiveImportLimits()
        // The same bounds at a smaller scale, so a bomb is refused in milliseconds, not seconds.
        limits.maxEntryBytes = 8 << 20
        limits.maxTotalBytes = 32 << 20
        limits.ratioFloorBytes = 1 << 20
        limits.maxEntries = 10_000
        return onFile(bytes) { file in
            try FuzzScratch.shared.withSpool { spool in
                let imported = try ArchiveImporter(path: file.path, kind: nil, spool: spool, limits: limits).read()
                return imported.images.isEmpty ? .refused : .accepted
            }
        }
    }

    /// Every header reader on the same bytes, and the reader of an image's own description:
    /// each must refuse what is not its type, and the input is accepted when one of them reads it.
    static func headers(_ bytes: UnsafeRawBufferPointer) -> FuzzOutcome {
        let data = Array(bytes)
        let size = UInt64(data.count)
        let read = { (offset: UInt64, count: Int) in data.bytes(at: offset, count: count) }
        let webP = (try? ImageGeometry.webP(size: size, read: read)) != nil
        let gif = (try? ImageGeometry.gif(size: size, read: read)) != nil
        let heif = (try? ImageGeometry.heif(size: size, read: read)) != nil
        // A JPEG's or PNG's own description (a caption): it never refuses, it must only return.
        _ = ImageDescription.of(size: size, read: read)
        return webP || gif || heif ? .accepted : .refused
    }

    /// A format 2.0 decoder on the bytes as they come (its own header reader first, as always),
    /// whole and then scaled as a thumbnail is, and the thumbnailer's path over it.
    static func decode(_ bytes: UnsafeRawBufferPointer, as type: MediaType) -> FuzzOutcome {
        let data = Array(bytes)
        let whole = (try? DecodedFrame.decode(data, as: type, limits: decodeLimits)) != nil
        let small = (try? Thumbnailer.thumbnail(of: data, longSide: 64, limits: decodeLimits)) != nil
        return whole && small ? .accepted : .refused
    }

    /// The thumbnailer's limits, scaled down: the decoder's behaviour at a limit is the same
    /// whatever the limit, and a smaller one keeps each input fast under the sanitizer.
    static let decodeLimits = DecodeLimits(maxPixels: 16_000_000, maxBytes: 96 << 20)

    /// Runs a reader on the input as a file; any error it throws is a refusal.
    private static func onFile(_ bytes: UnsafeRawBufferPointer, _ body: (GalleryFile) throws -> FuzzOutcome) -> FuzzOutcome {
        (try? FuzzScratch.shared.withFile(holding: bytes, body)) ?? .refused
    }
}
