import GalleryFormat
import GalleryMetadata
import GallerySystem

/// A gallery's images as numbered files in a new folder: `NNN-NAME.EXT`, where NNN is the
/// position (zero-padded, so the names sort in gallery order however they are listed), NAME
/// the recorded file name's stem when it has a safe one, and EXT its original extension when
/// that suits the image's type, else the type's own. The bytes are the originals, checked.
public enum ImageFolderExport {
    /// What an export of a gallery's images to a folder wrote, for the command's summary and its
    /// JSON output.
    public struct Report: Sendable, Codable {
        /// The folder written.
        public var path: String
        /// The gallery's title (a folder of files has nowhere to keep it).
        public var title: String
        /// The names of the files written, in gallery order.
        public var files: [String]
        /// The images' bytes written: each image's blob, once per image.
        public var totalBytes: UInt64
    }

    /// With `overwrite`, an existing folder is replaced only when it is empty, an unpacked gallery
    /// or a folder of images (`ReplaceRule.galleryFolder`).
    public static func write(galleryAt path: String, to folder: String, overwrite: Bool, strip: MetadataScope = [],
                             progress: ((_ done: Int, _ total: Int) -> Void)? = nil) throws -> Report {
        let reader = try GalleryReader(path: path)
        let images = reader.gallery.images
        let output = try FolderOutput(folder, overwrite: overwrite, replacing: .galleryFolder)
        var names: [String] = []
        var total: UInt64 = 0
        let width = max(3, String(images.count).count)
        for (index, image) in images.enumerated() {
            let name = fileName(for: image, position: index + 1, width: width)
            let file = try output.create(name)
            if strip.isEmpty {
                var offset: UInt64 = 0
                try reader.readBlob(image) { chunk in
                    try file.write(chunk, at: offset)
                    offset += UInt64(chunk.count)
                }
                total += image.byteSize
            } else {
                let bytes = try SharedImage.bytes(of: image, at: index, from: reader, gallery: path, strip: strip)
                try file.write(bytes, at: 0)
                total += UInt64(bytes.count)
            }
            names.append(name)
            progress?(index + 1, images.count)
        }
        try output.commit()
        return Report(path: output.destination, title: reader.gallery.title, files: names, totalBytes: total)
    }

    /// The file name of the image at `position` (from 1) in a gallery whose numbers are padded to
    /// `width` digits: `007-beach.jpg`. A recorded file name that is not safe is left out and only
    /// the number kept, and a name already numbered (a folder exported and imported again) is not
    /// numbered twice.
    public static func fileName(for image: GalleryImage, position: Int, width: Int) -> String {
        let number = String(repeating: "0", count: max(0, width - String(position).count)) + String(position)
        // Format 2.0's types keep their own extension (a WebP was once written as `.png`).
        let allowed: [String] = image.mediaType == .jpeg ? ["jpg", "jpeg", "jpe", "jfif"] : [image.mediaType.fileExtension]
        var stem: String?
        var ext = image.mediaType.fileExtension
        if let filename = image.filename, GalleryImage.isSafeFilename(filename) {
            let (named, dotted) = GalleryFileSystem.splitExtension(filename)
            let original = String(dotted.unicodeScalars.dropFirst())
            if allowed.contains(original.lowercased()) { ext = original }
            stem = named
        }
        // A stem that already starts with this number (an export imported again) is not numbered twice.
        if let known = stem, known.hasPrefix(number + "-") { stem = String(known.dropFirst(number.count + 1)) }
        return number + (stem.map { "-" + $0 } ?? "") + "." + ext
    }
}
