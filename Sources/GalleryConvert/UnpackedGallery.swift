import FoundationEssentials
import GalleryFormat
import GalleryImageHeaders
import GallerySystem
import SystemPackage
import GalleryImaging

/// A gallery as plain files, for diffs and version control: the container's entries under
/// their own names (`mimetype`, `manifest.json`, `images/<sha256>.<ext>`, `thumbnail.png`).
/// Packing a folder unpacked from a canonical gallery gives back the same bytes, because the
/// canonical container is a function of exactly these files (Specs/imagegallery-format.md, 4.10).
public enum UnpackedGallery {
    /// What an unpack or a pack did, for the command's summary and its JSON output.
    public struct Report: Sendable, Codable {
        /// The folder written by an unpack, or the gallery file written by a pack.
        public var path: String
        /// The gallery's title, from its manifest.
        public var title: String
        /// Images in the manifest.
        public var imageCount: Int
        /// Distinct blobs under `images/`: fewer than the images when some share their bytes.
        public var blobCount: Int
        /// The blobs' bytes, each distinct blob once.
        public var totalBytes: UInt64
        /// Packing: whether `manifest.json` was in canonical form. When it was not (edited by
        /// hand, say), the gallery holds its canonical form instead.
        public var manifestWasCanonical: Bool?
    }

    /// Unpacks a gallery file into a new folder. With `overwrite`, an existing folder is replaced
    /// only when it is empty, an unpacked gallery or a folder of images (`ReplaceRule.galleryFolder`).
    public static func unpack(galleryAt path: String, to folder: String, overwrite: Bool,
                              progress: ((_ done: Int, _ total: Int) -> Void)? = nil) throws -> Report {
        let reader = try GalleryReader(path: path)
        let gallery = reader.gallery
        let output = try FolderOutput(folder, overwrite: overwrite, replacing: .galleryFolder)
        guard let manifest = reader.archive.entry(named: GalleryPackage.manifestEntry) else {
            throw ConversionError(path, "the archive has no manifest.json")
        }
        try output.write(GalleryPackage.mimetypeEntry, bytes: Array(GalleryPackage.mediaType.utf8))
        try output.write(GalleryPackage.manifestEntry, bytes: reader.archive.readAll(manifest, limit: reader.archive.limits.maxManifestBytes))
        try output.write(GalleryPackage.thumbnailEntry, bytes: reader.thumbnail())
        try output.makeFolder(String(GalleryPackage.blobFolder.dropLast()))
        let blobs = gallery.distinctBlobs
        for (index, image) in blobs.enumerated() {
            let file = try output.create(image.path)
            var offset: UInt64 = 0
            try reader.readBlob(image) { chunk in
                try file.write(chunk, at: offset)
                offset += UInt64(chunk.count)
            }
            progress?(index + 1, blobs.count)
        }
        try output.commit()
        return Report(path: output.destination, title: gallery.title, imageCount: gallery.images.count,
                      blobCount: blobs.count, totalBytes: blobs.reduce(0) { $0 + $1.byteSize })
    }

    /// Checks an unpacked folder as a validator would check the container: `mimetype`, the
    /// manifest, every blob's size and SHA-256, the thumbnail; extra files are refused, so that
    /// nothing in the folder is silently left out of the gallery.
    public static func check(folder: String) throws -> (gallery: Gallery, thumbnail: [UInt8], crc32: [SHA256Digest: UInt32], canonical: Bool) {
        let base = GalleryFileSystem.withoutTrailingSlashes(folder)
        try refuseLink(base, GalleryPackage.blobFolder)
        func read(_ name: String, limit: Int) throws -> [UInt8] {
            try refuseLink(base, name)
            do {
                let file = try GalleryFile.openForReading(FilePath(base).appending(name))
                let size = try file.size
                guard size <= UInt64(limit) else { throw ConversionError(base, entry: name, "is larger than \(limit) bytes") }
                return try file.read(at: 0, count: Int(size))
            } catch let error as ConversionError {
                throw error
            } catch {
                throw ConversionError(base, entry: name, "cannot be read: \(error)", underlying: error)
            }
        }
        let mimetype = try read(GalleryPackage.mimetypeEntry, limit: 256)
        guard mimetype == Array(GalleryPackage.mediaType.utf8) else {
            throw ConversionError(base, entry: GalleryPackage.mimetypeEntry, "does not hold exactly \(GalleryPackage.mediaType)")
        }
        let manifestBytes = try read(GalleryPackage.manifestEntry, limit: GalleryLimits.default.maxManifestBytes)
        let gallery: Gallery
        do {
            gallery = try Manifest.decodeOrThrow(manifestBytes).0
        } catch {
            throw ConversionError(base, entry: GalleryPackage.manifestEntry, "\(error)", underlying: error)
        }
        let thumbnail = try read(GalleryPackage.thumbnailEntry, limit: 16 << 20)
        do {
            let header = try ImageHeader.parse(thumbnail)
            guard header.mediaType == .png, max(header.width, header.height) <= GalleryPackage.maxThumbnailSide else {
                throw ConversionError(base, entry: GalleryPackage.thumbnailEntry,
                                      "must be a PNG of at most \(GalleryPackage.maxThumbnailSide) pixels a side")
            }
        } catch let error as ImageHeaderError {
            throw ConversionError(base, entry: GalleryPackage.thumbnailEntry, "is not a usable PNG: \(error)", underlying: error)
        }

        var crc32: [SHA256Digest: UInt32] = [:]
        for image in gallery.distinctBlobs {
            let inspected: InspectedImageFile
            try refuseLink(base, image.path)
            do {
                inspected = try ImageFile.inspect(FilePath(base).appending(image.path).string)
            } catch {
                throw ConversionError(base, entry: image.path, "the manifest lists it, but it cannot be read as an image: \(error)",
                    underlying: error)
            }
            guard inspected.byteSize == image.byteSize, inspected.sha256 == image.sha256 else {
                throw ConversionError(base, entry: image.path, "holds \(inspected.byteSize) bytes with SHA-256 \(inspected.sha256.hex); "
                                      + "the manifest says \(image.byteSize) bytes with \(image.sha256.hex)")
            }
            crc32[image.sha256] = inspected.crc32
        }
        let expected = Set(gallery.distinctBlobs.map { String($0.path.dropFirst(GalleryPackage.blobFolder.count)) })
        for name in try listing(FilePath(base).appending(GalleryPackage.blobFolder).string) where !expected.contains(name) {
            throw ConversionError(base, entry: GalleryPackage.blobFolder + name, "is not listed in the manifest; "
                                  + "add it with `imagegallery add` or remove it")
        }
        let known: Set<String> = [GalleryPackage.mimetypeEntry, GalleryPackage.manifestEntry, GalleryPackage.thumbnailEntry,
                                  String(GalleryPackage.blobFolder.dropLast())]
        for name in try listing(base) where !known.contains(name) {
            throw ConversionError(base, entry: name, "is not part of an unpacked gallery")
        }
        return (gallery, thumbnail, crc32, Manifest.encode(gallery) == manifestBytes)
    }

    /// Packs an unpacked folder into a gallery file, after checking it.
    public static func pack(folder: String, to path: String, overwrite: Bool, durable: Bool = true,
                            progress: ((_ bytesWritten: UInt64, _ total: UInt64) -> Void)? = nil) throws -> Report {
        let (gallery, thumbnail, crc32, canonical) = try check(folder: folder)
        let base = GalleryFileSystem.withoutTrailingSlashes(folder)
        let total = gallery.distinctBlobs.reduce(0) { $0 + $1.byteSize }
        try GalleryWriter.write(gallery, thumbnail: thumbnail, to: path, overwrite: overwrite, durable: durable,
                                progress: { progress?($0, total) }) { image in
            .checksummedFile(FilePath(base).appending(image.path).string, crc32: crc32[image.sha256]!)
        }
        let blobs = gallery.distinctBlobs
        return Report(path: path, title: gallery.title, imageCount: gallery.images.count, blobCount: blobs.count,
                      totalBytes: blobs.reduce(0) { $0 + $1.byteSize }, manifestWasCanonical: canonical)
    }

    /// A link in the folder would carry whatever it points at into the gallery (another user's
    /// file, say), and would not be what `unpack` wrote: only plain files and the images folder
    /// are read.
    static func refuseLink(_ base: String, _ name: String) throws {
        let path = FilePath(base).appending(name)
        // A missing file is reported by its reader.
        guard let status = try? FileStatus.of(path, followingLinks: false) else { return }
        if status.kind == .symbolicLink {
            throw ConversionError(base, entry: name, "is a symbolic link; an unpacked gallery holds plain files only")
        }
    }

    static func listing(_ folder: String) throws -> [String] {
        do throws(FileSystemError) {
            return try GalleryFileSystem.entries(ofFolder: FilePath(folder))
        } catch {
            throw ConversionError(folder, "cannot be listed: \(error.reason)", underlying: error)
        }
    }
}
