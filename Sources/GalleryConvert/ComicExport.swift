import GalleryFormat

/// A gallery as a CBZ comic book: the images stored under numbered names in gallery order,
/// with a `ComicInfo.xml` holding the title and one page per image, so that comic readers show
/// the title and the pages in order. Written deterministically, as galleries are.
public enum ComicExport {
    public struct Report: Sendable, Codable {
        public var path: String
        public var title: String
        public var pageCount: Int
        public var totalBytes: UInt64
    }

    public static func write(galleryAt path: String, to output: String, overwrite: Bool, durable: Bool = true,
                             progress: ((_ done: Int, _ total: Int) -> Void)? = nil) throws -> Report {
        let reader = try GalleryReader(path: path)
        let gallery = reader.gallery
        let width = max(4, String(gallery.images.count).count)
        var total: UInt64 = 0
        try GalleryFileSystem.saveSafely(to: output, replacing: overwrite, durable: durable, beforeCommit: {}) { file in
            let zip = ZipWriter(file: file, modified: gallery.modified)
            let pages = gallery.images.map { (width: $0.width, height: $0.height, byteSize: $0.byteSize) }
            try zip.add(name: "ComicInfo.xml", bytes: ComicInfo.render(title: gallery.title, pages: pages), method: .deflated)
            for (index, image) in gallery.images.enumerated() {
                let number = String(index + 1)
                let name = String(repeating: "0", count: max(0, width - number.count)) + number
                    + (image.mediaType == .jpeg ? ".jpg" : ".png")
                // Streamed and verified on the way, as every blob read is: a damaged gallery
                // does not become a damaged comic.
                try zip.addStored(name: name, size: image.byteSize) { sink in try reader.readBlob(image, sink: sink) }
                total += image.byteSize
                progress?(index + 1, gallery.images.count)
            }
            try zip.finish()
        }
        return Report(path: output, title: gallery.title, pageCount: gallery.images.count, totalBytes: total)
    }
}
