import Foundation
import GalleryBuilder
import GalleryConvert
import GalleryPrograms
import GalleryFormat
import GallerySystem
import SystemPackage

// Import: a file dropped on the document browser becomes galleries in an opened folder, through
// GalleryConvert, as `imagegallery convert` makes them: an archive or a comic book (through
// libarchive, entry by entry into a spool), the seed apps' JSON (its URLs fetched through the
// fetch helper), or a gallery file (checked, then kept under a free name).
extension GalleryLibrary {
    /// What an import made, and what it left out.
    package struct Imported: Encodable, Sendable {
        package var galleries: [GallerySummary]
        package var notes: [String]
    }

    /// Imports the file at `upload`, which the user named `name`, into the opened folder
    /// `folderIndex`; images read from an archive go to `spool` (the caller removes both).
    /// Not isolated to the library: it blocks on libarchive and on the fetch helper, so callers
    /// run it on a thread of its own. Returns the files written and what was left out.
    package nonisolated func importFile(_ upload: String, named name: String, spool: String,
                                        folder folderIndex: Int) throws -> (written: [String], notes: [String]) {
        let folder = try folder(folderIndex)
        let head = try GalleryFile.openForReading(FilePath(upload)).read(at: 0, count: 512)
        let detected = try FormatDetection.detect(head: head, name: name)
        let stem = Self.fileStem(for: FormatDetection.stem(of: name))
        var written: [String] = []
        var notes: [String] = []
        switch detected.format {
        case .archive, .comic:
            let result = try ArchiveImporter(path: upload, kind: detected.archive, spool: spool).read()
            notes += result.skipped.map { "\(name): \($0.entry): skipped: \($0.reason)" } + result.notes.map { "\(name): \($0)" }
            guard !result.images.isEmpty else { throw EditorError.badRequest("\(name): no image of a type the format takes in it; nothing was made") }
            var builder = GalleryBuilder(title: result.title ?? stem, images: result.images)
            builder.cover = result.cover
            written.append(try Self.writeUnderFreeName(folder: folder, stem: stem) { try builder.write(to: $0) })
        case .seedJSON:
            let document = try SeedJSON.read(path: upload)
            let urls = document.galleries.flatMap { $0.images.map(\.url) }
            let request = FetchHelperRequest(cachePolicy: "default", jobs: 4, timeoutSeconds: 60, connectTimeoutSeconds: 10,
                                             retries: 3, maxImageBytes: 50_000_000, urls: urls)
            let (run, status) = try FetchHelperClient.fetch(request)
            defer { run.removeSpool() }
            guard status == 0 else { throw EditorError.badRequest("\(name): the fetch helper failed (status \(status))") }
            for gallery in document.galleries {
                var images: [SourceImage] = []
                for image in gallery.images {
                    switch run[image.url] {
                    case .success(let spooled): images.append(spooled.sourceImage(url: image.url))
                    case .failure(let failure): notes.append("\(name)\(image.pointer): \(failure.description)")
                    }
                }
                let title = gallery.hasTitle ? gallery.title : SeedJSON.defaultTitle(for: name)
                let builder = GalleryBuilder(title: title, images: images)
                written.append(try Self.writeUnderFreeName(folder: folder, stem: Self.fileStem(for: title)) { try builder.write(to: $0) })
            }
        case .gallery:
            _ = try GalleryReader(path: upload)
            written.append(try Self.writeUnderFreeName(folder: folder, stem: stem) { try GalleryFileSystem.moveNoReplace(FilePath(upload), to: FilePath($0)) })
        case .unpacked, .images, .web:
            throw EditorError.badRequest("\(name): drop a folder's images, an archive, a comic book, the seed apps' JSON or a gallery")
        }
        return (written, notes)
    }

    /// The opened folder at `index`.
    nonisolated func folder(_ index: Int) throws -> String {
        let folders = roots.folders
        guard folders.indices.contains(index) else { throw EditorError.badRequest("there is no opened folder \(index)") }
        return folders[index]
    }

    /// Runs `write` with "STEM.imagegallery", then "STEM 2.imagegallery" and so on while the name
    /// is taken; returns the path written. Nothing is ever replaced.
    static func writeUnderFreeName(folder: String, stem: String, _ write: (String) throws -> Void) throws -> String {
        for attempt in 1 ... 1000 {
            let path = FilePath(folder).appending(stem + (attempt == 1 ? "" : " \(attempt)") + ".imagegallery").string
            do {
                try write(path)
                return path
            } catch let error as FileSystemError where error.kind == .alreadyExists {
                continue
            } catch let error as GalleryBuildError where error.kind == .outputExists {
                continue
            }
        }
        throw EditorError.badRequest("\(folder): every file name for \"\(stem)\" is taken")
    }
}
