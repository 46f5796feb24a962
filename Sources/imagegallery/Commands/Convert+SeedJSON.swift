import ArgumentParser
import FoundationEssentials
import GalleryBuilder
import GalleryConvert
import GalleryPrograms
import GalleryFormat
import GalleryImaging
import GallerySystem
import SystemPackage

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
        let fetched = try Fetching.fetch(items, options: options, quiet: false, accepting: accepting.types)
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
            let before = written
            try item.builder.write(to: path, overwrite: overwrite) { GalleryCreation.show($0, on: writing, offset: before) }
            written = before + item.builder.storedBytes
        }
        var paths: [String] = []
        if isStore {
            let folder = try FolderOutput(output, overwrite: force, replacing: .seedStore)
            for (item, name) in zip(prepared, names) {
                try write(item, to: FilePath(folder.staging).appending(name).string, overwrite: false)
            }
            try folder.commit()
            paths = names.map { FilePath(folder.destination).appending($0).string }
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
                let failedHere = (report.items?.count ?? 0) - report.imageCount
                print("created \(report.path): \"\(Terminal.neutralised(report.title ?? ""))\", \(report.imageCount) image\(report.imageCount == 1 ? "" : "s"), "
                      + ByteCount.describe(report.totalBytes)
                      + (failedHere > 0 ? "; \(failedHere) could not be \(offline ? "had from the cache" : "fetched")" : ""))
            }
            if isStore { print("converted \(input): \(reports.count) galler\(reports.count == 1 ? "y" : "ies") in \(output)") }
        }
        let status = Fetching.status(failed: failed, of: items.count)
        if status != 0 { throw ExitCode(status) }
    }

    /// Refuses an output that exists, before anything is fetched, unless --force may replace
    /// it: for one gallery a file, for a store what `ReplaceRule.seedStore` allows.
    private func checkSeedOutput(isStore: Bool) throws {
        if isStore {
            try FolderOutput.check(output, overwrite: force, replacing: .seedStore)
            return
        }
        let kind = PathKind.of(FilePath(output))
        guard kind != .missing else { return }
        guard force else {
            throw CommandFailure(message: "\(output): already exists (use --force to replace it)", status: ExitStatus.cannotCreate)
        }
        switch kind {
        case .regularFile:
            return
        case .directory:
            throw CommandFailure(message: "\(output): is a folder; a single gallery is written as a file", status: ExitStatus.cannotCreate)
        default:
            throw CommandFailure(message: "\(output): is not a regular file or folder", status: ExitStatus.cannotCreate)
        }
    }

    /// One seed gallery with its fetched images: the gallery to write and what became of each image.
    private func prepare(_ seed: SeedGallery, fetched: FetchRun) -> PreparedSeedGallery {
        let items = seed.images.map { SourceItem.url($0.url) }
        var builder = GalleryBuilder(title: title ?? seed.title,
                                     images: captions.applied(to: Fetching.images(items, inspected: [], fetched: fetched)))
        let gallery = builder.gallery()
        // Written later: the time (perhaps the clock's) is fixed now, so the file is what is reported.
        (builder.date, builder.id) = (gallery.created, gallery.id)
        var galleryImages = gallery.images.makeIterator()
        let reports = seed.images.map { image -> ItemReport in
            let result = fetched[image.url]
            var report = Fetching.report(image.url, result, image: nil)
            (report.pointer, report.aspectRatio) = (image.pointer, image.aspectRatio)
            if case .success(let spooled) = result {
                report.image = galleryImages.next()?.id.manifestString
                report.width = spooled.image.header.width
                report.height = spooled.image.header.height
                if let ratio = image.aspectRatio,
                   !SeedJSON.aspectRatio(ratio, agreesWith: spooled.image.header.width, spooled.image.header.height) {
                    let actual = Double(spooled.image.header.width) / Double(spooled.image.header.height)
                    let warning = "aspectRatio \(ratio) differs by more than 1% from the image's \(spooled.image.header.width)×"
                        + "\(spooled.image.header.height) (\((actual * 10_000).rounded() / 10_000)); "
                        + "the image's own size is kept"
                    report.warning = warning
                    Terminal.warning("\(input): \(image.pointer)/aspectRatio: \(image.url): \(warning)")
                }
            }
            return report
        }
        return PreparedSeedGallery(
            builder: builder, gallery: gallery, pointer: seed.pointer,
            failed: seed.images.count - builder.images.count, items: reports)
    }
}

extension FolderOutput.ReplaceRule {
    /// What a store's OUTPUT may replace: a file, a link (only the link goes), or a folder of
    /// nothing but `.imagegallery` files (an earlier conversion); never a folder of other things.
    static let seedStore = FolderOutput.ReplaceRule { path in
        switch FolderOutput.kind(of: path) {
        case .file, .link, .missing: return nil
        case .other: return "is not a regular file or folder"
        case .folder: break
        }
        guard let names = FolderOutput.entries(of: path) else { return "cannot be listed; it is not replaced" }
        let foreign = names.filter { name in
            !name.hasSuffix(".imagegallery") || GalleryFileSystem.isHidden(name) || FolderOutput.kind(of: FilePath(path).appending(name).string) != .file
        }
        guard foreign.isEmpty else {
            return "is a folder holding more than galleries (\(foreign.sorted().prefix(3).joined(separator: ", "))); "
                + "--force replaces only a file or a folder of .imagegallery files"
        }
        return nil
    }
}

/// A seed gallery ready to be written.
private struct PreparedSeedGallery {
    var builder: GalleryBuilder
    var gallery: Gallery
    var pointer: String
    var failed: Int
    var items: [ItemReport]

    func report(path: String) -> GalleryCreation.Report {
        GalleryCreation.Report(path: path, title: gallery.title, pointer: pointer, id: gallery.id.manifestString,
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
    var galleries: [GalleryCreation.Report]
}
