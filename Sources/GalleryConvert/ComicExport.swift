import FoundationEssentials
import GalleryFormat
import GalleryMetadata
import GalleryImageHeaders
import GalleryImaging
import GallerySystem
import SystemPackage

/// A gallery as a CBZ comic book: the images stored under numbered names in gallery order,
/// with a `ComicInfo.xml` holding the title and one page per image, so that comic readers show
/// the title and the pages in order. Written deterministically, as galleries are.
public enum ComicExport {
    /// What a comic export wrote, for the command's summary and its JSON output.
    public struct Report: Sendable, Codable {
        /// The `.cbz` written.
        public var path: String
        /// The gallery's title, which the comic's `ComicInfo.xml` carries.
        public var title: String
        /// Pages written: one per image of the gallery.
        public var pageCount: Int
        /// The pages' bytes, as stored (a page made a JPEG counts at its new size).
        public var totalBytes: UInt64
    }

    /// Types comic readers show as they are: CBZ readers take JPEG, PNG and, widely, WebP.
    public static let readersShow: Set<MediaType> = [.jpeg, .png, .webp]

    /// Writes the comic. A page of another type (GIF, AVIF, HEIC) becomes a JPEG of the upright
    /// picture at full size unless `keepOriginals` (`--keep-originals`) keeps its own bytes.
    ///
    /// - Throws: `ConversionError` naming a page that cannot be made a JPEG (it does not decode,
    ///   or is past the decoding limits), with `--keep-originals` as the way out.
    public static func write(galleryAt path: String, to output: String, overwrite: Bool, durable: Bool = true,
                             keepOriginals: Bool = false, strip: MetadataScope = [],
                             progress: ((_ done: Int, _ total: Int) -> Void)? = nil) throws -> Report {
        let reader = try GalleryReader(path: path)
        let gallery = reader.gallery
        let width = max(4, String(gallery.images.count).count)
        // Pages made as JPEG wait in a hidden folder beside the output, not in memory.
        let outputPath = FilePath(output)
        let spool: FilePath = outputPath.removingLastComponent().isEmpty ? "." : outputPath.removingLastComponent()
        let pagesFolder = spool.appending("." + outputPath.lastComponentName + ".pages-" + UUID().uuidString.prefix(8))
        var made: [Int: (path: FilePath, width: Int, height: Int, size: UInt64)] = [:]
        defer { try? GalleryFileSystem.removeTree(pagesFolder) }
        for (index, image) in gallery.images.enumerated() {
            let converted = !keepOriginals && !readersShow.contains(image.mediaType)
            guard converted || !strip.isEmpty else { continue }
            if made.isEmpty { try GalleryFileSystem.makeFolder(pagesFolder, permissions: .ownerReadWriteExecute) }
            if converted {
                made[index] = try jpegPage(of: image, at: index, from: reader, gallery: path, into: pagesFolder)
            } else {
                // A page kept as it is, without what `strip` names: ComicInfo gives its new size.
                let bytes = try SharedImage.bytes(of: image, at: index, from: reader, gallery: path, strip: strip)
                // Named apart from the JPEG pages (`N.jpg`), which share the folder.
                let page = pagesFolder.appending("stripped-\(index + 1).\(image.mediaType.fileExtension)")
                try GalleryFileSystem.writeWhole(bytes, to: page)
                made[index] = (page, image.width, image.height, UInt64(bytes.count))
            }
        }
        var total: UInt64 = 0
        try GalleryFileSystem.saveSafely(to: outputPath, replacing: overwrite, durable: durable, beforeCommit: {}) { file in
            let zip = ZipWriter(file: file, modified: gallery.modified)
            let pages = gallery.images.enumerated().map { index, image in
                made[index].map { (width: $0.width, height: $0.height, byteSize: $0.size) }
                    ?? (width: image.width, height: image.height, byteSize: image.byteSize)
            }
            try zip.add(name: "ComicInfo.xml", bytes: ComicInfo.render(
                title: gallery.title, pages: pages,
                cover: gallery.coverImage.flatMap { cover in gallery.images.firstIndex { $0.id == cover.id } } ?? 0), method: .deflated)
            for (index, image) in gallery.images.enumerated() {
                let number = String(index + 1)
                let stem = String(repeating: "0", count: max(0, width - number.count)) + number
                if let page = made[index] {
                    let source = try GalleryFile.openForReading(page.path)
                    try zip.addStored(name: stem + "." + (page.path.extension ?? "jpg"), size: page.size) { sink in
                        var offset: UInt64 = 0
                        while offset < page.size {
                            let chunk = try source.read(at: offset, count: 1 << 20)
                            guard !chunk.isEmpty else { break }
                            try chunk.withUnsafeBytes { try sink($0) }
                            offset += UInt64(chunk.count)
                        }
                    }
                    total += page.size
                } else {
                    // Streamed and verified on the way, as every blob read is: a damaged gallery
                    // does not become a damaged comic.
                    try zip.addStored(name: stem + "." + image.mediaType.fileExtension, size: image.byteSize) { sink in
                        try reader.readBlob(image, sink: sink)
                    }
                    total += image.byteSize
                }
                progress?(index + 1, gallery.images.count)
            }
            try zip.finish()
        }
        return Report(path: output, title: gallery.title, pageCount: gallery.images.count, totalBytes: total)
    }

    /// One page as a JPEG of the upright picture at its full size, written into `folder`.
    private static func jpegPage(of image: GalleryImage, at index: Int, from reader: GalleryReader, gallery path: String,
                                 into folder: FilePath) throws -> (path: FilePath, width: Int, height: Int, size: UInt64) {
        let limits = GalleryThumbnail.limits
        let place = "image \(index + 1) (\(image.mediaType.name))"
        guard image.byteSize <= UInt64(limits.maxBytes / 2) else {
            throw ConversionError(path, entry: place, "holds \(image.byteSize) bytes, past what a page is made from; "
                                  + "--keep-originals keeps its own bytes")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(image.byteSize))
        try reader.readBlob(image) { bytes.append(contentsOf: $0) }
        let jpeg: [UInt8]
        let bitmap: Bitmap
        do {
            bitmap = try Thumbnailer.thumbnail(of: bytes, longSide: max(image.width, image.height), limits: limits)
            jpeg = try JPEGEncoder.encode(bitmap, quality: 92)
        } catch {
            throw ConversionError(path, entry: place, "cannot be made a JPEG page: \(error); --keep-originals keeps its own bytes",
                underlying: error)
        }
        let file = folder.appending(String(index + 1) + ".jpg")
        try GalleryFile.create(file, permissions: .ownerReadWrite).write(jpeg, at: 0)
        return (file, bitmap.width, bitmap.height, UInt64(jpeg.count))
    }
}
