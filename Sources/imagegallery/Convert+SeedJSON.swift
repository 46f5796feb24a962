import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GalleryConvert
import GalleryFormat
import GalleryImaging

// The seed apps' Codable JSON to galleries (Specs/seed-json.md): one gallery gives the file
// OUTPUT, a store gives the folder OUTPUT with one gallery per entry. Every URL of every gallery
// is fetched in one run of the fetch helper, through the cache; an image that cannot be had is
// reported and left out, and the exit status says so (4, or 5 with nothing written).

extension ImageGallery.Convert {
    func convertSeedJSON() throws {
        let document: SeedJSON.Document
        do {
            document = try SeedJSON.read(path: input)
        } catch let error as ConversionError {
            throw CommandFailure(message: error.description, status: ExitStatus.dataError)
        }
        let isStore = document.form == .store
        if isStore, title != nil {
            throw CommandFailure(message: "\(input): --title names a single gallery, and this is a store of "
                                 + "\(document.galleries.count) galleries, each with its own title", status: ExitStatus.usage)
        }
        try checkSeedOutput(isStore: isStore)
        if isStore, document.galleries.isEmpty { Terminal.warning("\(input): the store holds no galleries; \(output) will be empty") }

        var options = fetching
        if offline { options.cachePolicy = .offline }
        let items = document.galleries.flatMap { $0.images.map { SourceItem.url($0.url) } }
        let fetched = try Fetching.fetch(items, options: options, quiet: false)
        defer { fetched.removeSpool() }

        let prepared = document.galleries.map { prepare($0, fetched: fetched) }
        let failed = prepared.reduce(0) { $0 + $1.failed }
        if failed > 0, failed == items.count {
            try Fetching.failNothingAdded(
                path: output,
                message: "\(output): no image could be " + (options.cachePolicy == .offline ? "had from the cache (--offline)" : "fetched")
                    + "; nothing was written",
                items: items, fetched: fetched, json: outputOptions.json)
        }

        let names = isStore ? SeedJSON.fileNames(for: prepared.map(\.gallery.title)) : []
        let total = prepared.reduce(UInt64(0)) { sum, item in sum + item.gallery.distinctBlobs.reduce(0) { $0 + $1.byteSize } }
        let writing = ProgressBar("Writing", total: total)
        var written: UInt64 = 0
        func write(_ item: PreparedSeedGallery, to path: String, overwrite: Bool) throws {
            let thumbnail = try ImageGallery.Create.thumbnail(of: item.gallery.images.first.map { item.bySHA[$0.sha256]! })
            let before = written
            try GalleryWriter.write(
                item.gallery, thumbnail: thumbnail, to: path, overwrite: overwrite, durable: true,
                progress: { writing.update(before + $0, detail: ByteCount.describe(before + $0)) },
                blob: { image in item.bySHA[image.sha256]!.blob })
            written = before + item.gallery.distinctBlobs.reduce(0) { $0 + $1.byteSize }
        }
        var paths: [String] = []
        if isStore {
            let folder = output.hasSuffix("/") && output.count > 1 ? String(output.dropLast()) : output
            try Self.writeFolderAtomically(folder, replacing: force) { temporary in
                for (item, name) in zip(prepared, names) { try write(item, to: temporary + "/" + name, overwrite: false) }
            }
            paths = names.map { folder + "/" + $0 }
        } else {
            try write(prepared[0], to: output, overwrite: force)
            paths = [output]
        }
        writing.finish()

        let reports = zip(prepared, paths).map { item, path in item.report(path: path) }
        if outputOptions.json {
            try Terminal.printJSON(SeedConversionReport(input: input, output: output, form: document.form.rawValue,
                                                        imageCount: items.count, failed: failed, galleries: reports))
        } else {
            for report in reports {
                let failedHere = report.items.count - report.imageCount
                print("created \(report.path): \"\(report.title)\", \(report.imageCount) image\(report.imageCount == 1 ? "" : "s"), "
                      + ByteCount.describe(report.totalBytes)
                      + (failedHere > 0 ? "; \(failedHere) could not be \(offline ? "had from the cache" : "fetched")" : ""))
            }
            if isStore { print("converted \(input): \(reports.count) galler\(reports.count == 1 ? "y" : "ies") in \(output)") }
        }
        let status = Fetching.status(failed: failed, of: items.count)
        if status != 0 { throw ExitCode(status) }
    }

    /// Refuses an output that exists, before anything is fetched, unless --force may replace
    /// it. A store's folder replaces only a file or a folder of galleries (an earlier
    /// conversion): --force never deletes a folder of other things.
    private func checkSeedOutput(isStore: Bool) throws {
        let kind = PathKind.of(output)
        guard kind != .missing else { return }
        guard force else {
            throw CommandFailure(message: "\(output): already exists (use --force to replace it)", status: ExitStatus.cannotCreate)
        }
        switch (kind, isStore) {
        case (.regularFile, _):
            return
        case (.directory, true):
            let names = (try? FileManager.default.contentsOfDirectory(atPath: output)) ?? [""]
            let foreign = names.filter { name in
                !name.hasSuffix(".imagegallery") || name.hasPrefix(".") || PathKind.of(output + "/" + name) != .regularFile
            }
            guard foreign.isEmpty else {
                throw CommandFailure(message: "\(output): is a folder holding more than galleries (\(foreign.sorted().prefix(3).joined(separator: ", "))); "
                                     + "--force replaces only a file or a folder of .imagegallery files",
                                     status: ExitStatus.cannotCreate)
            }
        case (.directory, false):
            throw CommandFailure(message: "\(output): is a folder; a single gallery is written as a file", status: ExitStatus.cannotCreate)
        default:
            throw CommandFailure(message: "\(output): is not a regular file or folder", status: ExitStatus.cannotCreate)
        }
    }

    /// One seed gallery with its fetched images: the gallery to write and what became of each image.
    private func prepare(_ seed: SeedGallery, fetched: FetchRun) -> PreparedSeedGallery {
        let items = seed.images.map { SourceItem.url($0.url) }
        let images = ImageGallery.Create.images(items, inspected: [], fetched: fetched)
        let gallery = ImageGallery.Create.makeGallery(from: images, title: title ?? seed.title, date: nil, id: nil)
        var galleryImages = gallery.images.makeIterator()
        let reports = seed.images.map { image -> SeedImageReport in
            let result = fetched[image.url]
            let base = Fetching.report(image.url, result, image: nil)
            var report = SeedImageReport(source: image.url, pointer: image.pointer, status: base.status, origin: base.origin,
                                         error: base.error, errorCode: base.errorCode, aspectRatio: image.aspectRatio)
            if case .success(let spooled) = result {
                report.image = galleryImages.next()?.id.manifestString
                report.width = spooled.header.width
                report.height = spooled.header.height
                if let ratio = image.aspectRatio,
                   !SeedJSON.aspectRatio(ratio, agreesWith: spooled.header.width, spooled.header.height) {
                    let actual = Double(spooled.header.width) / Double(spooled.header.height)
                    let warning = "aspectRatio \(ratio) differs by more than 1% from the image's \(spooled.header.width)×"
                        + "\(spooled.header.height) (\((actual * 10_000).rounded() / 10_000)); "
                        + "the image's own size is kept"
                    report.warning = warning
                    Terminal.warning("\(input): \(image.pointer)/aspectRatio: \(image.url): \(warning)")
                }
            }
            return report
        }
        return PreparedSeedGallery(
            gallery: gallery, pointer: seed.pointer,
            bySHA: Dictionary(images.map { ($0.sha256, $0) }, uniquingKeysWith: { first, _ in first }),
            failed: seed.images.count - images.count, items: reports)
    }

    /// Makes a folder appear whole or not at all: `fill` writes into a hidden temporary folder
    /// beside it, which is then renamed into place (with `replacing`, swapped with the old one,
    /// whose galleries are then removed). On any failure the temporary folder goes and `path`
    /// is untouched.
    static func writeFolderAtomically(_ path: String, replacing: Bool, fill: (String) throws -> Void) throws {
        let parent = GalleryFileSystem.directory(of: path)
        let name = GalleryFileSystem.fileName(of: path)
        var template = Array(((parent.isEmpty ? "" : parent + "/") + ".\(name).XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw CommandFailure(message: "\(path): cannot create a temporary folder beside it: \(String(cString: strerror(errno)))",
                                 status: ExitStatus.cannotCreate)
        }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var placed = false
        defer { if !placed { try? FileManager.default.removeItem(atPath: temporary) } }
        // mkdtemp makes it private (0700); the result is a folder like any other the user makes.
        let mask = umask(0)
        umask(mask)
        _ = chmod(temporary, 0o777 & ~mask)
        try fill(temporary)
        try GalleryFileSystem.synchronizeDirectory(temporary)

        if replacing, PathKind.of(path) != .missing {
            if try GalleryFileSystem.exchange(temporary, path) {
                placed = true
                removeOldOutput(temporary)
            } else {
                let aside = temporary + "-old"
                guard rename(path, aside) == 0 else { throw FileSystemError.current(path: path, operation: "move aside") }
                guard rename(temporary, path) == 0 else {
                    let error = FileSystemError.current(path: path, operation: "rename \(temporary) to")
                    _ = rename(aside, path)
                    throw error
                }
                placed = true
                removeOldOutput(aside)
            }
        } else {
            // rename(2) never replaces a folder that has entries; a name that appeared since the
            // check is refused, except an empty folder, which is all that could be lost.
            guard rename(temporary, path) == 0 else {
                let code = errno
                throw code == ENOTEMPTY || code == EEXIST || code == ENOTDIR
                    ? CommandFailure(message: "\(path): already exists (use --force to replace it)", status: ExitStatus.cannotCreate)
                    : FileSystemError.current(path: path, operation: "rename \(temporary) to")
            }
            placed = true
        }
        try GalleryFileSystem.synchronizeDirectory(parent.isEmpty ? "." : parent)
    }

    /// What an earlier output held, now moved aside: a file, or a folder of galleries. Only
    /// galleries are removed; anything that appeared since the check stays, with a warning.
    private static func removeOldOutput(_ path: String) {
        guard PathKind.of(path) == .directory else {
            GalleryFileSystem.remove(path)
            return
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        for name in names where name.hasSuffix(".imagegallery") && PathKind.of(path + "/" + name) == .regularFile {
            GalleryFileSystem.remove(path + "/" + name)
        }
        if rmdir(path) != 0 {
            Terminal.warning("\(path): the replaced folder held more than galleries; it was left there")
        }
    }
}

/// A seed gallery ready to be written.
private struct PreparedSeedGallery {
    var gallery: Gallery
    var pointer: String
    var bySHA: [SHA256Digest: CreateImage]
    var failed: Int
    var items: [SeedImageReport]

    func report(path: String) -> SeedGalleryReport {
        SeedGalleryReport(path: path, title: gallery.title, pointer: pointer, id: gallery.id.manifestString,
                          revision: gallery.revision.manifestString, imageCount: gallery.images.count,
                          blobCount: gallery.distinctBlobs.count,
                          totalBytes: gallery.distinctBlobs.reduce(0) { $0 + $1.byteSize }, items: items)
    }
}

/// `convert --json` of seed JSON.
struct SeedConversionReport: Encodable {
    var input: String
    var output: String
    /// "gallery" or "store".
    var form: String
    /// Images listed in the input, in all galleries.
    var imageCount: Int
    var failed: Int
    var galleries: [SeedGalleryReport]
}

struct SeedGalleryReport: Encodable {
    var path: String
    var title: String
    /// Where the gallery sits in the input, as a JSON pointer.
    var pointer: String
    var id: String
    var revision: String
    var imageCount: Int
    var blobCount: Int
    var totalBytes: UInt64
    /// One per image of the input, added or failed, in order.
    var items: [SeedImageReport]
}

/// What became of one image of the input: `ItemReport`'s members, and the aspect-ratio check.
struct SeedImageReport: Encodable {
    var source: String
    var pointer: String
    /// "added" or "failed".
    var status: String
    var image: String?
    var origin: String?
    var error: String?
    var errorCode: String?
    /// As the input gave it.
    var aspectRatio: Double?
    /// The fetched image's header size.
    var width: Int?
    var height: Int?
    /// Set when the aspect ratio disagrees with the image by more than 1%.
    var warning: String?
}
