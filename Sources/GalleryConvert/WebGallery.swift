import Dispatch
import FoundationEssentials
import GalleryFormat
import GallerySystem
import SystemPackage
import GalleryImaging
import GalleryMetadata
import Synchronization

/// A gallery as a static web site, to look at in any browser from `file://`: no server, no
/// network, no external resource. The layout is in `Specs/web-gallery.md`:
///
///     index.html            the grid of thumbnails (the seed apps' collection view)
///     pages/001.html …      one page per image: zoom and pan, keys, the centred paging strip
///     images/001.jpg …      the original bytes, named by position (never by the gallery's names)
///     thumbs/001.png …      grid and strip thumbnails (or the original, when it is small or
///                           cannot be decoded)
///     shown/001.jpg …       what the image page shows for a type browsers cannot show (HEIC),
///                           upright; the original in images/ stays the download
///     sized/001-480.jpg …   renditions at 480, 1024 and 2048 px (never enlarged), for srcset
///     assets/gallery.css, gallery.js, slideshow.js, gallery-data.js
public enum WebGalleryWriter {
    /// The long side of the grid's thumbnails, as the gallery's own (format section 7).
    public static let thumbnailSide = GalleryThumbnail.longSide

    /// Decoding limits for thumbnails; past them, or past `maxThumbnailedBytes`, the grid shows
    /// the original.
    static let limits = GalleryThumbnail.limits
    static let maxThumbnailedBytes: UInt64 = 64 << 20

    /// Written into `index.html`; `overwrite` replaces only a folder that carries it (or an empty one).
    static let generatorMarker = "<meta name=\"generator\" content=\"imagegallery"

    /// Writes the web gallery of the gallery file at `galleryPath` into `folder`, which must not
    /// exist unless `overwrite` is set; the folder appears whole or not at all (``FolderOutput``).
    ///
    /// With `overwrite`, only a previous web gallery, an empty folder, a file or a link is
    /// replaced: a folder of other things is refused, so a mistyped path cannot lose it.
    ///
    /// - Parameters:
    ///   - galleryPath: the gallery file to present.
    ///   - folder: where the web gallery goes.
    ///   - overwrite: whether a previous web gallery (or an empty folder, a file or a link) there
    ///     may be replaced.
    ///   - strip: the metadata removed from the published images.
    ///   - baseURL: where the folder will be published; only with one are the sharing tags
    ///     (Open Graph, Twitter card) written, and the JSON-LD's addresses made absolute.
    ///   - progress: called with the number of images written so far and their total, from any
    ///     thread.
    /// - Throws: ``ConversionError`` naming the gallery and, where there is one, the image, for a
    ///   gallery that cannot be read (`.invalidInput`); naming the folder for an output that is
    ///   in the way (`.outputExists`) or cannot be written (`.cannotWrite`).
    public static func write(galleryAt galleryPath: String, to folder: String, overwrite: Bool,
                             strip: MetadataScope = .location, baseURL: WebGalleryBaseURL? = nil,
                             progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil) throws -> WebGalleryReport {
        let output = try FolderOutput(folder, overwrite: overwrite, replacing: .webGallery)

        let reader: GalleryReader
        do {
            reader = try GalleryReader(path: galleryPath)
        } catch let error as GalleryError {
            throw ConversionError(galleryPath, entry: error.location.entry, "\(error.code.id): \(error.message)",
                underlying: error)
        } catch let error as FileSystemError {
            throw ConversionError(galleryPath, "cannot \(error.operation): \(error.reason)", underlying: error)
        }

        let site = WebGallerySite(gallery: reader.gallery, galleryPath: galleryPath, baseURL: baseURL)
        for sub in ["pages", "images", "thumbs", "assets"] { try output.makeFolder(sub) }
        if site.images.contains(where: { !$0.mediaType.browsersShow }) { try output.makeFolder("shown") }
        if site.images.contains(where: { $0.mediaType != .gif && max($0.width, $0.height) > renditionSides[0] }) {
            try output.makeFolder("sized")
        }
        let written = try writeImages(site, from: reader, into: output, strip: strip, progress: progress)
        try output.write("index.html", text: site.indexPage(written))
        for position in site.images.indices {
            try output.write(site.pagePath(position), text: site.imagePage(at: position, written))
        }
        try output.write("assets/gallery-data.js", text: site.dataScript(written))
        try output.write("assets/gallery.css", bytes: WebGalleryAssets.stylesheet)
        try output.write("assets/gallery.js", bytes: WebGalleryAssets.script)
        try output.write("assets/slideshow.js", bytes: WebGalleryAssets.slideshow)
        try output.commit()

        let target = output.destination
        let warnings = written.enumerated().compactMap { position, image in
            image.fallback.map { "\(site.describe(position)): the grid shows the original: \($0)" }
        }
        return WebGalleryReport(folder: target, index: FilePath(target).appending("index.html").string, imageCount: site.images.count,
                                thumbnailCount: written.count(where: { $0.fallback == nil && $0.thumbnail.hasPrefix("thumbs/") }),
                                byteCount: written.reduce(0) { $0 + $1.bytes }, warnings: warnings,
                                strip: strip.isEmpty ? "none" : strip.description,
                                strippedCount: written.count { !$0.removed.isEmpty })
    }

    /// What was written for one image.
    struct WrittenImage: Sendable {
        /// The grid's picture, relative to the folder: `thumbs/NNN.png`, or the image itself.
        var thumbnail: String
        var thumbnailSize: (width: Int, height: Int)
        /// The image's size as a browser shows it: upright, which the manifest's (stored) size
        /// is not for a JPEG turned by its EXIF orientation. Known from the thumbnail.
        var uprightSize: (width: Int, height: Int)
        /// Why the original stands in for a thumbnail it should have had (it does not decode).
        var fallback: String?
        var bytes: UInt64
        /// What the image page shows: the image itself, or for a type browsers cannot show
        /// (HEIC) a JPEG rendition, `shown/NNN.jpg`; the original stays the download.
        var shown: String? = nil
        /// The published image's own size and SHA-256: the original's, or the stripped file's.
        var imageSize: UInt64 = 0
        var imageSHA256 = ""
        /// The metadata fields removed from it.
        var removed: [String] = []
        /// The picture at the sizes of ``renditionSides`` smaller than it, smallest first.
        var renditions: [Rendition] = []
    }

    /// Copies every image and makes its thumbnail, on all cores, lowest positions first; the
    /// first failure (by position) is thrown after the workers stop.
    static func writeImages(_ site: WebGallerySite, from reader: GalleryReader, into output: FolderOutput,
                            strip: MetadataScope, progress: (@Sendable (Int, Int) -> Void)?) throws -> [WrittenImage] {
        let images = site.images
        let results = Mutex<[Result<WrittenImage, any Error>?]>(Array(repeating: nil, count: images.count))
        let next = Atomic<Int>(0)
        let done = Atomic<Int>(0)
        let failed = Atomic<Bool>(false)
        progress?(0, images.count)
        let workers = min(ProcessInfo.processInfo.activeProcessorCount, max(images.count, 1))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while !failed.load(ordering: .relaxed) {
                let position = next.add(1, ordering: .relaxed).oldValue
                guard position < images.count else { return }
                let result = Result { try writeImage(at: position, of: site, from: reader, into: output, strip: strip) }
                if case .failure = result { failed.store(true, ordering: .relaxed) }
                results.withLock { $0[position] = result }
                progress?(done.add(1, ordering: .relaxed).newValue, images.count)
            }
        }
        let finished = results.withLock { $0 }
        for case .failure(let error)? in finished { throw error }
        return try finished.map { try $0!.get() }
    }

    static func writeImage(at position: Int, of site: WebGallerySite, from reader: GalleryReader,
                           into output: FolderOutput, strip: MetadataScope) throws -> WrittenImage {
        let image = site.images[position]
        let imagePath = site.imagePath(position)
        // A small PNG, WebP or GIF is its own thumbnail; a small JPEG, AVIF or HEIC is not, since
        // only decoding it tells its orientation (EXIF, irot), which the page layout needs; nor is
        // an image browsers cannot show.
        let turns = [.jpeg, .avif, .heic].contains(image.mediaType)
        let wantsThumbnail = (max(image.width, image.height) > thumbnailSide || turns || !image.mediaType.browsersShow)
            && image.byteSize <= maxThumbnailedBytes
        let (bytes, offset, published) = try publish(image, at: position, of: site, from: reader, into: output,
                                                     keeping: wantsThumbnail, strip: strip)
        let stored = (width: image.width, height: image.height)
        guard wantsThumbnail else {
            return WrittenImage(thumbnail: imagePath, thumbnailSize: stored, uprightSize: stored, bytes: offset,
                                imageSize: offset, imageSHA256: published.sha256, removed: published.removed)
        }
        let bitmap: Bitmap
        do {
            bitmap = try Thumbnailer.thumbnail(of: bytes, longSide: thumbnailSide, limits: limits)
        } catch {
            // A browser may still show what our decoders refuse (or past their limits).
            return WrittenImage(thumbnail: imagePath, thumbnailSize: stored, uprightSize: stored,
                                fallback: "\(error)", bytes: offset, imageSize: offset, imageSHA256: published.sha256,
                                removed: published.removed)
        }
        let thumbnail = bitmap.png()
        let thumbnailPath = site.thumbnailPath(position)
        try output.write(thumbnailPath, bytes: thumbnail)
        let turned = (bitmap.width > bitmap.height) != (image.width > image.height) && bitmap.width != bitmap.height
        var written = WrittenImage(thumbnail: thumbnailPath, thumbnailSize: (bitmap.width, bitmap.height),
                                   uprightSize: turned ? (image.height, image.width) : stored,
                                   bytes: offset + UInt64(thumbnail.count), imageSize: offset,
                                   imageSHA256: published.sha256, removed: published.removed)
        written.renditions = try writeRenditions(of: bytes, at: position, upright: written.uprightSize, of: site, into: output)
        written.bytes += written.renditions.reduce(0) { $0 + $1.bytes }
        if !image.mediaType.browsersShow {
            // Made from the bytes already held; past the limits the page links the original only.
            if let shown = try? JPEGEncoder.encode(Thumbnailer.thumbnail(of: bytes, longSide: Thumbnailer.displayLongSide, limits: limits)) {
                written.shown = site.shownPath(position)
                try output.write(written.shown!, bytes: shown)
                written.bytes += UInt64(shown.count)
            }
        }
        return written
    }
}

extension WebGalleryWriter {
    /// Writes the image's file, `images/NNN.ext`: the original streamed and verified as it is
    /// copied, or with a strip the bytes read whole, stripped, then written. Returns the bytes
    /// held for a thumbnail (all of them when `keeping`), the size written, and the published
    /// file's SHA-256 with what was removed.
    static func publish(_ image: GalleryImage, at position: Int, of site: WebGallerySite, from reader: GalleryReader,
                        into output: FolderOutput, keeping: Bool, strip: MetadataScope) throws
        -> (bytes: [UInt8], size: UInt64, published: (sha256: String, removed: [String])) {
        let file = try output.create(site.imagePath(position))
        guard strip.isEmpty else {
            let shared = try SharedImage.stripped(image, place: site.describe(position), from: reader,
                                                  gallery: site.galleryPath, strip: strip)
            try file.write(shared.bytes, at: 0)
            let digest = SHA256Hasher.of(shared.bytes)
            return (keeping ? shared.bytes : [], UInt64(shared.bytes.count), (digest.hex, shared.removed))
        }
        var bytes: [UInt8] = []
        if keeping { bytes.reserveCapacity(Int(image.byteSize)) }
        var offset: UInt64 = 0
        do {
            try reader.readBlob(image) { chunk in
                try file.write(chunk, at: offset)
                offset += UInt64(chunk.count)
                if keeping { bytes.append(contentsOf: chunk) }
            }
        } catch let error as GalleryError {
            throw ConversionError(site.galleryPath, entry: site.describe(position), "\(error.code.id): \(error.message)",
                underlying: error)
        }
        return (bytes, offset, (image.sha256.hex, []))
    }
}

extension FolderOutput.ReplaceRule {
    /// An earlier web gallery (its `index.html` carries the generator marker), an empty folder,
    /// a file or a link; any other folder is kept, even with --force.
    static let webGallery = FolderOutput.ReplaceRule { path in
        switch FolderOutput.kind(of: path) {
        case .file, .link, .missing: return nil
        case .other: return "is not a file, a link or a folder; it is not replaced"
        case .folder: break
        }
        guard let names = FolderOutput.entries(of: path) else { return "cannot be listed; it is not replaced" }
        if names.isEmpty { return nil }
        let head = (try? GalleryFile.openForReading(FilePath(path).appending("index.html")).read(at: 0, count: 2048)) ?? []
        guard String(decoding: head, as: UTF8.self).contains(WebGalleryWriter.generatorMarker) else {
            return "is a folder that is not a web gallery written by imagegallery; it is not replaced, even with --force"
        }
        return nil
    }
}

extension FolderOutput {
    fileprivate func write(_ relative: String, text: String) throws {
        try write(relative, bytes: Array(text.utf8))
    }
}

/// What a web gallery export wrote.
public struct WebGalleryReport: Sendable, Codable, Equatable {
    /// The folder, as given (without trailing slashes).
    public var folder: String
    /// `folder/index.html`: the page to open.
    public var index: String
    /// Images of the gallery on the page, one per image in gallery order.
    public var imageCount: Int
    /// Thumbnails made (small images are their own thumbnails).
    public var thumbnailCount: Int
    /// Bytes of images and thumbnails written.
    public var byteCount: UInt64
    /// Images shown in the grid by their original bytes because they could not be thumbnailed.
    public var warnings: [String]
    /// What was removed from the published images: "location" (the default), "location and
    /// identity", "all metadata", or "none" (the originals, byte for byte).
    public var strip: String = "none"
    /// Images that carried some of it.
    public var strippedCount: Int = 0

    /// A report of these figures, as the writer makes it.
    public init(folder: String, index: String, imageCount: Int, thumbnailCount: Int, byteCount: UInt64, warnings: [String],
                strip: String = "none", strippedCount: Int = 0) {
        self.strip = strip
        self.strippedCount = strippedCount
        self.folder = folder
        self.index = index
        self.imageCount = imageCount
        self.thumbnailCount = thumbnailCount
        self.byteCount = byteCount
        self.warnings = warnings
    }
}
