import ArgumentParser
import FoundationEssentials
import GalleryBuilder
import GalleryDocument
import GalleryFormat
import GalleryImaging
import GallerySystem
import SystemPackage

// The editing commands. Each opens the document through the document layer, which takes its
// lock (waiting for another shell's edit to finish), reads it, edits, and saves safely: two
// shells editing one file take turns and lose nothing.
extension ImageGallery {
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add images to a gallery: files, folders of images, and http(s) URLs.",
            discussion: """
                Folders contribute their image files in natural name order, as with create. URLs are \
                fetched (several at once) through the cache in $XDG_CACHE_HOME/imagegallery before the gallery \
                is opened, and each URL is recorded as its image's source. A URL that fails is reported with its \
                reason and skipped: the other images are still added, in the order given, and the exit status is \
                4 (or 5 when nothing could be added).
                """)

        @Argument(help: "The .imagegallery file.") var file: String
        @Argument(help: "Image files, folders of images and URLs.") var sources: [String]
        @Option(help: ArgumentHelp("Insert at this position (1 is the first; default: the end).", valueName: "n"))
        var at: Int?
        @OptionGroup var fetching: FetchCommandOptions
        @OptionGroup var accepting: AcceptOptions
        @OptionGroup var captions: CaptionOptions
        @OptionGroup var pixels: PixelCheckOptions
        @OptionGroup var edit: EditOptions

        func run() async throws {
            let accepted = accepting.types
            let (items, skipped) = try Fetching.items(sources, accepting: accepted)
            for path in skipped { Terminal.warning("\(path): skipped: \(ImageFile.refusal(ofFileAt: path, accepting: accepted))") }
            let index = try DocumentCommand.index(at, option: "--at")
            // Checked before anything is fetched, so that a typo costs no downloads.
            guard PathKind.of(FilePath(file)) == .regularFile else {
                throw CommandFailure(message: "\(file): no such gallery file", status: ExitStatus.noInput)
            }
            let inspected = try Fetching.inspectFiles(items, accepting: accepted)
            let fetched = try Fetching.fetch(items, options: fetching, quiet: false, accepting: accepted)
            defer { fetched.removeSpool() }
            let images = Fetching.images(items, inspected: inspected, fetched: fetched)
            let failed = items.count - images.count
            if !items.isEmpty, images.isEmpty {
                try Fetching.failNothingAdded(path: file, message: "\(file): no image could be fetched; the gallery is unchanged",
                                              items: items, fetched: fetched, json: edit.json)
            }
            // Decoded before the gallery is opened, so that a refusal leaves it as it was and unlocked.
            try pixels.check(images)
            let document = try await DocumentCommand.openForEditing(file, options: edit.documentOptions)
            let before = try await document.gallery.writtenFormatVersion
            let added = try await document.insertImages(captions.applied(to: images), at: index)
            var report = try await DocumentCommand.finish(document, images: added.map(\.id.manifestString))
            if let placeholder = await document.placeholderThumbnail {
                Terminal.warning(GalleryCreation.placeholderNotice(image: placeholder.image, reason: placeholder.reason))
            }
            report.upgraded = report.formatVersion.flatMap(FormatVersion.init).map { $0.major > before.major }
            if report.upgraded == true, let gallery = try? GalleryReader(path: file).gallery {
                GalleryCreation.noteFormat(of: gallery, at: file, before: before)
            }
            if items.contains(where: { if case .url = $0 { true } else { false } }) {
                report.items = Fetching.itemReports(items, fetched: fetched, added: added)
            }
            try DocumentCommand.print(report, json: edit.json,
                                      summary: "added \(images.count) image\(images.count == 1 ? "" : "s") to \(file): "
                                        + "\(report.imageCount) in all"
                                        + (failed == 0 ? "" : "; \(failed) could not be fetched"))
            let status = Fetching.status(failed: failed, of: items.count)
            if status != 0 { throw ExitCode(status) }
        }
    }
}
