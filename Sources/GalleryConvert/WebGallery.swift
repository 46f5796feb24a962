#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation
import GalleryFormat
import GalleryImaging
import Synchronization

/// A gallery as a static web site, to look at in any browser from `file://`: no server, no
/// network, no external resource. The layout is in `Specs/web-gallery.md`:
///
///     index.html            the grid of thumbnails (the seed apps' collection view)
///     pages/001.html …      one page per image: zoom and pan, keys, the centred paging strip
///     images/001.jpg …      the original bytes, named by position (never by the gallery's names)
///     thumbs/001.png …      grid and strip thumbnails (or the original, when it is small or
///                           cannot be decoded)
///     assets/gallery.css, gallery.js, gallery-data.js
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
    /// exist unless `overwrite` is set; the folder appears whole or not at all (written into a
    /// temporary sibling, then renamed into place).
    ///
    /// With `overwrite`, only a previous web gallery, an empty folder, a file or a link is
    /// replaced: a folder of other things is refused, so a mistyped path cannot lose it.
    ///
    /// - Parameter progress: called with the number of images written so far and their total,
    ///   from any thread.
    /// - Throws: ``ConversionError`` naming the gallery and, where there is one, the image, for a
    ///   gallery that cannot be read or an output that is in the way; `FileSystemError` (naming
    ///   the path) when writing fails.
    public static func write(galleryAt galleryPath: String, to folder: String, overwrite: Bool,
                             progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil) throws -> WebGalleryReport {
        let target = trimmedFolder(folder)
        guard !target.isEmpty, target != "/", target != ".", target != ".." else {
            throw ConversionError(folder, "cannot be the web gallery's folder: name a new folder")
        }
        let existing = try checkTarget(target, overwrite: overwrite)

        let reader: GalleryReader
        do {
            reader = try GalleryReader(path: galleryPath)
        } catch let error as GalleryError {
            throw ConversionError(galleryPath, entry: error.location.entry, "\(error.code.id): \(error.message)")
        } catch let error as FileSystemError {
            throw ConversionError(galleryPath, "cannot \(error.operation): \(String(cString: strerror(error.errno)))")
        }

        let staging = try makeStagingFolder(beside: target)
        var placed = false
        defer { if !placed { try? FileManager.default.removeItem(atPath: staging) } }

        let site = WebGallerySite(gallery: reader.gallery, galleryPath: galleryPath)
        for sub in ["pages", "images", "thumbs", "assets"] { try makeFolder(staging + "/" + sub) }
        let written = try writeImages(site, from: reader, into: staging, progress: progress)
        try writeText(site.indexPage(written), to: staging + "/index.html")
        for position in site.images.indices {
            try writeText(site.imagePage(at: position, written), to: staging + "/" + site.pagePath(position))
        }
        try writeText(site.dataScript(written), to: staging + "/assets/gallery-data.js")
        try writeText(WebGalleryAssets.stylesheet, to: staging + "/assets/gallery.css")
        try writeText(WebGalleryAssets.script, to: staging + "/assets/gallery.js")

        try place(staging, at: target, replacing: existing)
        placed = true
        try? GalleryFileSystem.synchronizeDirectory(GalleryFileSystem.directory(of: target))

        let warnings = written.enumerated().compactMap { position, image in
            image.fallback.map { "\(site.describe(position)): the grid shows the original: \($0)" }
        }
        return WebGalleryReport(folder: target, index: target + "/index.html", imageCount: site.images.count,
                                thumbnailCount: written.count(where: { $0.fallback == nil && $0.thumbnail.hasPrefix("thumbs/") }),
                                byteCount: written.reduce(0) { $0 + $1.bytes }, warnings: warnings)
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
    }

    /// Copies every image and makes its thumbnail, on all cores, lowest positions first; the
    /// first failure (by position) is thrown after the workers stop.
    static func writeImages(_ site: WebGallerySite, from reader: GalleryReader, into staging: String,
                            progress: (@Sendable (Int, Int) -> Void)?) throws -> [WrittenImage] {
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
                let result = Result { try writeImage(at: position, of: site, from: reader, into: staging) }
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
                           into staging: String) throws -> WrittenImage {
        let image = site.images[position]
        let imagePath = site.imagePath(position)
        // A small PNG is its own thumbnail; a small JPEG is not, since only decoding it tells its
        // orientation, which the page layout needs.
        let wantsThumbnail = (max(image.width, image.height) > thumbnailSide || image.mediaType == .jpeg)
            && image.byteSize <= maxThumbnailedBytes
        var bytes: [UInt8] = []
        if wantsThumbnail { bytes.reserveCapacity(Int(image.byteSize)) }
        let file = try GalleryFile.create(staging + "/" + imagePath)
        var offset: UInt64 = 0
        do {
            try reader.readBlob(image) { chunk in
                try file.write(chunk, at: offset)
                offset += UInt64(chunk.count)
                if wantsThumbnail { bytes.append(contentsOf: chunk) }
            }
        } catch let error as GalleryError {
            throw ConversionError(site.galleryPath, entry: site.describe(position), "\(error.code.id): \(error.message)")
        }
        let stored = (width: image.width, height: image.height)
        guard wantsThumbnail else {
            return WrittenImage(thumbnail: imagePath, thumbnailSize: stored, uprightSize: stored, bytes: offset)
        }
        let bitmap: Bitmap
        do {
            bitmap = try Thumbnailer.thumbnail(of: bytes, longSide: thumbnailSide, limits: limits)
        } catch {
            // A browser may still show what our decoders refuse (or past their limits).
            return WrittenImage(thumbnail: imagePath, thumbnailSize: stored, uprightSize: stored,
                                fallback: "\(error)", bytes: offset)
        }
        let thumbnail = bitmap.png()
        let thumbnailPath = site.thumbnailPath(position)
        try GalleryFile.create(staging + "/" + thumbnailPath).write(thumbnail, at: 0)
        let turned = (bitmap.width > bitmap.height) != (image.width > image.height) && bitmap.width != bitmap.height
        return WrittenImage(thumbnail: thumbnailPath, thumbnailSize: (bitmap.width, bitmap.height),
                            uprightSize: turned ? (image.height, image.width) : stored,
                            bytes: offset + UInt64(thumbnail.count))
    }

    // MARK: The folder appears whole or not at all

    /// What is at the target now.
    enum Existing { case nothing, replaceable }

    static func trimmedFolder(_ folder: String) -> String {
        var path = folder
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }

    static func checkTarget(_ target: String, overwrite: Bool) throws -> Existing {
        var status = stat()
        guard lstat(target, &status) == 0 else {
            guard errno == ENOENT else {
                throw ConversionError(target, "cannot be examined: \(String(cString: strerror(errno)))")
            }
            return .nothing
        }
        guard overwrite else { throw ConversionError(target, "already exists (use --force to replace it)") }
        guard (status.st_mode & S_IFMT) == S_IFDIR else { return .replaceable }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: target)) ?? []
        if names.isEmpty { return .replaceable }
        let head = (try? GalleryFile.openForReading(target + "/index.html").read(at: 0, count: 2048)) ?? []
        guard String(decoding: head, as: UTF8.self).contains(generatorMarker) else {
            throw ConversionError(target, "is a folder that is not a web gallery written by imagegallery; "
                                  + "it is not replaced, even with --force")
        }
        return .replaceable
    }

    /// `.NAME.tmp-XXXXXX` beside the target, on the same file system, so the rename is atomic.
    static func makeStagingFolder(beside target: String) throws -> String {
        let parent = GalleryFileSystem.directory(of: target)
        let name = GalleryFileSystem.fileName(of: target)
        var template = Array(((parent.isEmpty ? "." : parent) + "/." + name.prefix(100) + ".tmp-XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw FileSystemError.current(path: parent.isEmpty ? "." : parent, operation: "create a temporary folder in")
        }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        // mkdtemp makes 0700; a web gallery is read like any other folder the user makes.
        let mask = umask(0)
        umask(mask)
        _ = chmod(path, 0o777 & ~mask)
        return path
    }

    static func makeFolder(_ path: String) throws {
        guard mkdir(path, 0o777) == 0 else { throw FileSystemError.current(path: path, operation: "create the folder") }
    }

    static func writeText(_ text: String, to path: String) throws {
        try GalleryFile.create(path).write(Array(text.utf8), at: 0)
    }

    static func place(_ staging: String, at target: String, replacing existing: Existing) throws {
        switch existing {
        case .nothing:
            // rename() would silently replace an empty folder made meanwhile: refuse that instead.
            guard access(target, F_OK) != 0 else {
                throw ConversionError(target, "appeared while the web gallery was written; it is not replaced")
            }
            guard rename(staging, target) == 0 else {
                throw FileSystemError.current(path: target, operation: "rename \(staging) to")
            }
        case .replaceable:
            if try GalleryFileSystem.exchange(staging, target) {
                // The old content now sits at the staging name.
                try? FileManager.default.removeItem(atPath: staging)
            } else {
                try FileManager.default.removeItem(atPath: target)
                guard rename(staging, target) == 0 else {
                    throw FileSystemError.current(path: target, operation: "rename \(staging) to")
                }
            }
        }
    }
}

/// What a web gallery export wrote.
public struct WebGalleryReport: Sendable, Codable, Equatable {
    /// The folder, as given (without trailing slashes).
    public var folder: String
    /// `folder/index.html`: the page to open.
    public var index: String
    public var imageCount: Int
    /// Thumbnails made (small images are their own thumbnails).
    public var thumbnailCount: Int
    /// Bytes of images and thumbnails written.
    public var byteCount: UInt64
    /// Images shown in the grid by their original bytes because they could not be thumbnailed.
    public var warnings: [String]

    public init(folder: String, index: String, imageCount: Int, thumbnailCount: Int, byteCount: UInt64, warnings: [String]) {
        self.folder = folder
        self.index = index
        self.imageCount = imageCount
        self.thumbnailCount = thumbnailCount
        self.byteCount = byteCount
        self.warnings = warnings
    }
}
