import ArgumentParser
import FoundationEssentials
import GalleryBuilder
import GalleryFormat
import GalleryImageHeaders
import GalleryImaging

/// A gallery to be made from images: what `create` asks for, and `convert` of a folder or an
/// archive too, each from its own command line, so that no command parses another's. The
/// building is the library's (`GalleryBuilder`); this adds the terminal around it.
struct GalleryCreation {
    var output: String
    var title: String
    /// RFC 3339, already checked.
    var date: String?
    /// A UUID, already checked.
    var id: String?
    var force: Bool
    var noSync: Bool
    var json: Bool
    /// The image types taken (`--accept`).
    var accepting = Set(MediaType.allCases)
    /// Whether images' own descriptions become their captions (not under `--no-captions`).
    var captions = CaptionOptions()
    /// Whether every image is decoded before anything is written (`--check-pixels`).
    var pixels = PixelCheckOptions()

    /// A written gallery, for `--json`: `create`'s report, and each gallery's in `convert` of
    /// seed JSON. A member that is nil is left out.
    struct Report: Encodable {
        var path: String
        /// Seed JSON only: the gallery's title, and where it sits in the input, as a JSON pointer.
        var title: String?
        var pointer: String?
        var id: String
        var revision: String
        var imageCount: Int
        var blobCount: Int
        var totalBytes: UInt64
        /// `create` only: the files of its folders that are no images.
        var skipped: [String]?
        /// What became of each item, when some were URLs; for seed JSON, one per image of the
        /// input, added or failed, in order.
        var items: [ItemReport]?
        /// `create` only: "1.0", or "2.0" when an image is of a type format 2.0 added.
        var formatVersion: String?
    }

    /// Writes a gallery of `sources` (files, folders, URLs) and reports it. `fetching` is nil
    /// for a caller whose sources cannot hold URLs (convert of a folder).
    func run(_ sources: [String], fetching: FetchCommandOptions?) throws {
        try GalleryBuilder.checkOutput(output, overwrite: force)
        let (items, skipped) = try Fetching.items(sources, accepting: accepting)
        for path in skipped { Terminal.warning("\(path): skipped: \(ImageFile.refusal(ofFileAt: path, accepting: accepting))") }
        // The first image's thumbnail is decoded while the rest are hashed (see ThumbnailAhead).
        let ahead = items.first.flatMap { item in if case .file(let path) = item { ThumbnailAhead(firstImageAt: path) } else { nil } }
        let inspected = try Fetching.inspectFiles(items, accepting: accepting)
        let fetched = try fetching.map { try Fetching.fetch(items, options: $0, quiet: false, accepting: accepting) } ?? .none
        defer { fetched.removeSpool() }
        let images = Fetching.images(items, inspected: inspected, fetched: fetched)
        let failed = items.count - images.count
        if failed > 0, images.isEmpty {
            try Fetching.failNothingAdded(path: output, message: "\(output): no image could be fetched; nothing was written",
                                          items: items, fetched: fetched, json: json)
        }

        let result = try write(images, thumbnailAhead: ahead)
        let gallery = result.gallery
        let report = Report(path: output, id: gallery.id.manifestString, revision: gallery.revision.manifestString,
                            imageCount: gallery.images.count, blobCount: gallery.distinctBlobs.count,
                            totalBytes: result.storedBytes, skipped: skipped,
                            items: fetched.isEmpty ? nil : Fetching.itemReports(items, fetched: fetched, added: gallery.images),
                            formatVersion: gallery.writtenFormatVersion.description)
        Self.noteFormat(of: gallery, at: output, before: nil)
        if json {
            try Terminal.printJSON(report)
        } else {
            let duplicates = report.imageCount - report.blobCount
            print("created \(output): \(report.imageCount) image\(report.imageCount == 1 ? "" : "s")"
                  + (duplicates > 0 ? " (\(duplicates) identical, stored once)" : "")
                  + ", \(ByteCount.describe(result.storedBytes))"
                  + (failed > 0 ? "; \(failed) could not be fetched" : ""))
        }
        let status = Fetching.status(failed: failed, of: items.count)
        if status != 0 { throw ExitCode(status) }
    }

    /// Says so on standard error when a gallery is written as format 2.0, which readers of
    /// format 1 refuse: a new one, or one that was 1.x `before` (`add` of a WebP, say).
    static func noteFormat(of gallery: Gallery, at path: String, before: FormatVersion?) {
        let written = gallery.writtenFormatVersion
        guard written.major >= 2, before.map({ $0.major < written.major }) ?? true else { return }
        let types = MediaType.names(Set(gallery.images.map(\.mediaType)).filter { $0.since.major >= 2 })
        Terminal.warning("\(path) is \(before == nil ? "" : "now ")format \(written) (it holds \(types) images): readers of "
                         + "format 1 will refuse it; --accept jpeg,png keeps a gallery at 1.0")
    }

    /// The one line that says the first image gave no thumbnail: its pixels did not decode (or
    /// are past a limit), which only `validate --deep` and `--check-pixels` judge.
    static func placeholderNotice(image: String, reason: String) -> String {
        "\(image): no thumbnail from this image (\(reason)); a grey one is stored (its pixels are checked only by "
            + "validate --deep and --check-pixels)"
    }

    /// Writes the gallery of `images` to the output, with a progress bar.
    func write(_ images: [SourceImage], thumbnailAhead: ThumbnailAhead? = nil, cover: Int? = nil) throws -> GalleryBuilder.Result {
        try pixels.check(images)
        var builder = GalleryBuilder(title: title, date: date.flatMap { Timestamp(rfc3339: $0) },
                                     id: id.flatMap { UUID(uuidString: $0) }, images: captions.applied(to: images))
        builder.thumbnailAhead = thumbnailAhead
        builder.cover = cover
        return try Self.write(builder, to: output, overwrite: force, durable: !noSync)
    }

    /// Builds `builder`'s gallery at `path`, with a progress bar.
    static func write(_ builder: GalleryBuilder, to path: String, overwrite: Bool, durable: Bool) throws
        -> GalleryBuilder.Result {
        let bar = ProgressBar("Writing", total: builder.storedBytes)
        let result = try builder.write(to: path, overwrite: overwrite, durable: durable) { show($0, on: bar) }
        bar.finish()
        return result
    }

    /// Shows one of the builder's events: bytes on the bar (after `offset` bytes written
    /// before, when one bar covers several galleries), a placeholder thumbnail as a warning.
    static func show(_ event: GalleryBuilder.Event, on bar: ProgressBar, offset: UInt64 = 0) {
        switch event {
        case .placeholderThumbnail(let image, let reason):
            Terminal.warning(Self.placeholderNotice(image: image, reason: reason))
        case .wrote(let bytes, _):
            bar.update(offset + bytes, detail: ByteCount.describe(offset + bytes))
        }
    }
}

