import GalleryFormat
import GalleryImageHeaders
import GallerySystem

/// What a thumbnailer serves for a gallery file (the `thumbnail` command and the fuzz target
/// of Specs/security.md run exactly this).
extension GalleryThumbnail {
    /// Decoding limits for files a thumbnailer is handed unasked: 100 megapixels, 192 MiB and
    /// ``cpuBudget``. Under an address-space cap, `readingLimitsFittingAddressSpace()` lowers
    /// the bytes to what the cap leaves.
    public static let readingLimits = DecodeLimits(maxPixels: 100_000_000, maxBytes: 192 << 20, cpuBudget: cpuBudget)

    /// The embedded thumbnail when it is sound and as large as wanted (or as large as it can
    /// be), else the first image decoded at the smallest scale that covers `longSide`.
    /// When the first image cannot be decoded, the sound embedded thumbnail is served even if
    /// it is smaller than asked, as the freedesktop thumbnail spec allows. An embedded thumbnail
    /// that is the grey placeholder (a writer could not decode the first image) is served only
    /// when the first image cannot be decoded here either. `notice`, when given, is told in one
    /// line whenever such a fallback is served, and why (the `thumbnail` command prints it; the
    /// confined thumbnailer stays quiet).
    public static func bitmap(ofGalleryAt path: String, longSide: Int,
                              limits: DecodeLimits = readingLimits, notice: ((String) -> Void)? = nil) throws -> Bitmap {
        try bitmap(of: GalleryReader(path: path), longSide: longSide, limits: limits, notice: notice)
    }

    /// ``bitmap(ofGalleryAt:longSide:limits:notice:)`` for a gallery opened already.
    public static func bitmap(of reader: GalleryReader, longSide: Int, limits: DecodeLimits = readingLimits,
                              notice: ((String) -> Void)? = nil) throws -> Bitmap {
        try bitmap(of: reader, longSide: longSide, limits: limits, notice: notice, firstImage: nil)
    }

    /// The same, with the first image's bytes when a caller has read them already (through
    /// ``GalleryReader/readBlob(_:sink:)`` or `withBlob`, which check them against the manifest).
    package static func bitmap(of reader: GalleryReader, longSide: Int, limits: DecodeLimits,
                               notice: ((String) -> Void)?, firstImage: [UInt8]?) throws -> Bitmap {
        let path = reader.path
        let first = reader.gallery.coverImage
        // Kept undecoded until it is served: a first image that decodes makes it unneeded.
        var smallEmbedded: [UInt8]?
        var placeholder: Bitmap?
        if let (embedded, header, enough) = soundEmbeddedThumbnail(of: reader, longSide: longSide) {
            if enough, let bitmap = try? Thumbnailer.thumbnail(of: embedded, longSide: longSide, limits: limits) {
                guard let first, Self.isPlaceholder(bitmap, of: (header.width, header.height), for: first) else { return bitmap }
                placeholder = bitmap
            }
            if !enough { smallEmbedded = embedded }
        }
        do {
            return try firstImageBitmap(reader, first, path: path, longSide: longSide, limits: limits, notice: notice,
                                        bytes: firstImage)
        } catch where placeholder != nil {
            notice?("\(path): served the gallery's grey placeholder thumbnail: \((error as? GalleryError)?.message ?? "\(error)")")
            return placeholder!
        } catch let error as GalleryError
                    where error.code == .blobPastDecodeLimit || error.code == .pixelsCorrupt(first?.mediaType ?? .jpeg) {
            if let smallEmbedded, let bitmap = try? Thumbnailer.thumbnail(of: smallEmbedded, longSide: longSide,
                                                                           limits: limits) {
                let what = first.map { Self.isPlaceholder(bitmap, of: (bitmap.width, bitmap.height), for: $0) } == true
                    ? "grey placeholder" : "embedded"
                notice?("\(path): served the gallery's \(what) \(bitmap.width)×\(bitmap.height) thumbnail, smaller than the "
                        + "\(longSide) px asked: \(error.message)")
                return bitmap
            }
            throw error
        }
    }

    /// Whether an embedded thumbnail of `size`, served as `bitmap`, is the grey placeholder
    /// (`PlaceholderThumbnail`) of a gallery whose first image is `first`: its size and every pixel.
    static func isPlaceholder(_ bitmap: Bitmap, of size: (width: Int, height: Int), for first: GalleryImage) -> Bool {
        let expected = PlaceholderThumbnail.size(forFirstImage: (first.width, first.height))
        guard size.width == expected.width, size.height == expected.height else { return false }
        return bitmap.pixels.withUnsafeBufferPointer { pixels in
            stride(from: 0, to: pixels.count, by: 4).allSatisfy {
                pixels[$0] == 128 && pixels[$0 + 1] == 128 && pixels[$0 + 2] == 128 && pixels[$0 + 3] == 255
            }
        }
    }

    /// Loads the library that would decode the gallery's first image, if it is one loaded when
    /// first needed (format 2.0's), so that a program can then forbid opening files before
    /// any decoder runs. A library that cannot load is reported by the decode itself.
    ///
    /// Little CMS is loaded too when the first image will be decoded for a thumbnail of
    /// `longSide` (the embedded one is too small) and its colour description needs converting;
    /// to know, its bytes are read (within `limits`, as the thumbnail would read them) and
    /// returned, for ``bitmap(of:longSide:limits:notice:firstImage:)``. With the engine loaded
    /// the budget is lowered by the room it takes, as it is by the room the decoder's libraries
    /// take under an address-space cap. A thumbnail served from the embedded one, or an image
    /// with no description, loads no Little CMS.
    package static func loadDecoder(for reader: GalleryReader, longSide: Int,
                                    limits: inout DecodeLimits) -> [UInt8]? {
        guard let first = reader.gallery.coverImage else { return nil }
        let type = first.mediaType
        if type != .jpeg, type != .png {
            try? FormatTwoLibrary.require(type)
            // The budget's reserve was set before the library and those it brings were mapped
            // (libheif's take 27 MB): under a cap of a few dozen MiB they can leave less than
            // the budget, and a decode admitted then failed to allocate. What is left now,
            // less room for the decode's thread stacks and the allocator, bounds it too.
            if let cap = AddressSpace.limit, let mapped = AddressSpace.mappedBytes() {
                limits.maxBytes = min(limits.maxBytes, max(Int(clamping: cap) - mapped - (4 << 20), 0))
            }
        }
        guard type != .gif, soundEmbeddedThumbnail(of: reader, longSide: longSide)?.enough != true,
              first.byteSize <= UInt64(limits.maxBytes / 2) else { return nil }
        // Read as the thumbnail's decode would read it (`withBlob`: into huge pages, checked
        // against the manifest), and handed to it.
        guard let bytes = try? reader.withBlob(first, { $0 }) else { return nil }
        if ColourPlan.mayNeedEngine(bytes, as: type), (try? ColourTransform.requireEngine()) != nil {
            limits.maxBytes = max(limits.maxBytes - ColourTransform.engineBytes, 0)
        }
        return bytes
    }

    /// The gallery's `thumbnail.png` when it is a sound 8-bit PNG within the format's size,
    /// with its header, and whether it is enough for `longSide`: as large, or as large as the
    /// format allows for the first image, or the only picture there is.
    static func soundEmbeddedThumbnail(of reader: GalleryReader,
                                       longSide: Int) -> (bytes: [UInt8], header: ImageHeader, enough: Bool)? {
        guard let embedded = try? reader.thumbnail(limit: 4 << 20),
              let header = try? ImageHeader.parse(embedded),
              header.mediaType == .png, header.bitDepth == 8, !header.interlaced,
              max(header.width, header.height) <= GalleryPackage.maxThumbnailSide else { return nil }
        let embeddedSide = max(header.width, header.height)
        let first = reader.gallery.coverImage
        let enough = embeddedSide >= longSide || first == nil
            || embeddedSide >= min(GalleryPackage.maxThumbnailSide, max(first!.width, first!.height))
        return (embedded, header, enough)
    }

    private static func firstImageBitmap(_ reader: GalleryReader, _ first: GalleryImage?, path: String, longSide: Int,
                                         limits: DecodeLimits, notice: ((String) -> Void)?, bytes read: [UInt8]?) throws -> Bitmap {
        guard let first else {
            throw GalleryError(.thumbnailMissing, "the gallery has no images and no usable thumbnail.png",
                               location: Location(file: path))
        }
        guard first.byteSize <= UInt64(limits.maxBytes / 2) else {
            throw GalleryError(.blobPastDecodeLimit, "the first image holds \(first.byteSize) bytes, more than a "
                               + "thumbnailer reads", location: Location(file: path, entry: first.path))
        }
        // Told on the way out, as they were when the digest came first: a notice about bytes
        // that then fail it is none.
        var notices: [String] = []
        defer { if let notice { notices.forEach(notice) } }
        let thumbnail = { (bytes: [UInt8]) throws -> Bitmap in
            do {
                return try Thumbnailer.thumbnail(of: bytes, longSide: longSide, limits: limits,
                                                 colourNotice: notice.map { _ in { notices.append("\(path): \(first.path): \($0)") } })
            } catch let error as ImageDecodeError {
                throw GalleryError(error.kind == .pastLimit ? .blobPastDecodeLimit : .pixelsCorrupt(first.mediaType),
                                   "the first image cannot be thumbnailed: \(error.message)",
                                   location: Location(file: path, entry: first.path))
            }
        }
        do {
            // Decoded while its digest is checked on the other core, and served only if that agrees.
            return try read.map(thumbnail) ?? reader.withBlob(first, thumbnail)
        } catch let error as GalleryError where error.code == .blobHashMismatch || error.code == .blobTypeMismatch {
            notices = []
            throw error
        }
    }
}

extension GalleryThumbnail {
    /// `readingLimits`, lowered to what an address-space limit (RLIMIT_AS: `ulimit -v`, a
    /// sandbox) leaves, less 32 MiB for thread stacks, the PNG written and the process's own
    /// allocations (a program that then loads Little CMS lowers it by
    /// `ColourTransform.engineBytes`). Past the budget a decode is refused (exit 65), where it
    /// would otherwise fail to allocate and take the process down.
    public static func readingLimitsFittingAddressSpace() -> DecodeLimits {
        var limits = readingLimits
        guard let cap = AddressSpace.limit else { return limits }
        let used = AddressSpace.mappedBytes() ?? 128 << 20
        let room = Int(clamping: cap) - used - (32 << 20)
        limits.maxBytes = max(min(limits.maxBytes, room), 8 << 20)
        return limits
    }
}
