import ArgumentParser
import FoundationEssentials
import GalleryBuilder
import GalleryConvert
import GalleryFormat
import GalleryImageHeaders
import GallerySystem
import SystemPackage

/// Foreign archives and comic books → gallery.
extension ImageGallery.Convert {
    func importArchive(_ kind: ArchiveKind?) throws {
        try GalleryBuilder.checkOutput(output, overwrite: force)
        let spool = try ConversionSpool(beside: output)
        defer { spool.remove() }
        let progress = LazyProgress("Reading")
        let result = try ArchiveImporter(path: input, kind: kind, spool: spool.folder.string, accepting: accepting.types).read { done, total in
            progress.update(done, of: total, detail: ByteCount.describe(done))
        }
        progress.finish()
        for skipped in result.skipped {
            Terminal.warning("\(input): \(skipped.entry): skipped: \(skipped.reason)")
        }
        for note in result.notes { Terminal.warning("\(input): \(note)") }
        guard !result.images.isEmpty else {
            throw CommandFailure(message: "\(input): no image of a type taken (\(MediaType.names(accepting.types))) in the archive; "
                                 + "nothing was written", status: ExitStatus.dataError)
        }
        let name = title ?? result.title ?? Self.stem(of: input)
        let creation = GalleryCreation(output: output, title: name, force: force, noSync: noSync, json: outputOptions.json,
                                       accepting: accepting.types, captions: captions, pixels: pixels)
        // Named by archive and entry in messages.
        let images = result.images.map { image in
            var image = image
            image.name = "\(input): \(image.name)"
            return image
        }
        let built = try creation.write(images, cover: result.cover)
        let (gallery, total) = (built.gallery, built.storedBytes)
        let format = result.hasComicInfo ? "comic" : "archive"
        try finish(Report(input: input, output: output, from: format, to: "gallery", title: gallery.title,
                          imageCount: gallery.images.count, totalBytes: total, skipped: result.skipped,
                          notes: result.notes.isEmpty ? nil : result.notes),
                   summary: "created \(output) from \(input): \(gallery.images.count) image\(gallery.images.count == 1 ? "" : "s"), "
                       + ByteCount.describe(total)
                       + (result.skipped.isEmpty ? "" : "; \(result.skipped.count) entr\(result.skipped.count == 1 ? "y" : "ies") skipped"))
    }

    /// The input's name without its archive extensions: `trip.tar.gz` → `trip`.
    static func stem(of path: String) -> String { FormatDetection.stem(of: path) }
}

/// A private folder beside the output for the images read from an archive, on the same file
/// system (not a /tmp that may be memory) so that they are copied into the gallery cheaply.
struct ConversionSpool {
    let folder: FilePath

    init(beside output: String) throws {
        let path = FilePath(output)
        let parent = path.removingLastComponent()
        folder = (parent.isEmpty ? "." : parent)
            .appending("." + path.lastComponentName + ".spool-" + UUID().uuidString.prefix(8))
        do throws(FileSystemError) {
            try GalleryFileSystem.makeFolder(folder, permissions: .ownerReadWriteExecute)
        } catch {
            throw CommandFailure(message: "\(folder.string): cannot make a folder for the images read: \(error.reason)",
                                 status: ExitStatus.cannotCreate)
        }
    }

    func remove() { try? GalleryFileSystem.removeTree(folder) }
}
