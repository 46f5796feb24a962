import ArgumentParser
import FoundationEssentials
import GalleryFormat
import GalleryImaging
import GallerySystem
import Synchronization

extension ImageGallery {
    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
            abstract: "Create a gallery from image files, folders of images and http(s) URLs.",
            discussion: """
                Files are taken in the order given; a folder contributes its JPEG, PNG, WebP, GIF, AVIF and HEIC files (not its \
                subfolders) in natural name order, so 2.jpg comes before 10.jpg. Other files in a folder are \
                skipped with a warning, hidden files silently. Pixel sizes come from the image headers.

                URLs are fetched through the cache in $XDG_CACHE_HOME/imagegallery, several at once, and each is \
                recorded as its image's source. A URL that fails is reported and left out: the gallery holds the \
                rest, in the order given, and the exit status is 4 (5, and no file, when nothing could be had).

                The result is deterministic: the same inputs give the same bytes. The time stamp is --date, \
                else $SOURCE_DATE_EPOCH, else the newest modification time of the images (for a URL, its \
                Last-Modified; the current time when there is none); the document id is derived from title, time and images unless --id \
                is given.
                """
        )

        @Argument(help: "The gallery file to write.")
        var output: String

        @Argument(help: "Image files, folders of images and URLs. None gives an empty gallery.")
        var sources: [String] = []

        @Option(help: "The gallery's title (default: the output file's name without extension).")
        var title: String?

        @Option(help: "Created and modified time, RFC 3339 (e.g. 2026-01-02T03:04:05Z).")
        var date: String?

        @Option(help: "The document id (a UUID).")
        var id: String?

        @OptionGroup var writing: WriteOptions
        var force: Bool { writing.force }
        var noSync: Bool { writing.noSync }

        @OptionGroup var fetching: FetchCommandOptions
        @OptionGroup var accepting: AcceptOptions
        @OptionGroup var captions: CaptionOptions
        @OptionGroup var pixels: PixelCheckOptions
        @OptionGroup var outputOptions: OutputOptions

        func validate() throws {
            if let date, Timestamp(rfc3339: date) == nil {
                throw ValidationError("--date \"\(date)\" is not an RFC 3339 date-time such as 2026-01-02T03:04:05Z")
            }
            if let id, UUID(uuidString: id) == nil { throw ValidationError("--id \"\(id)\" is not a UUID") }
            if let title, let problem = ManifestRules.titleProblem(title) {
                throw ValidationError("--title: \(problem) (IG-MAN-008)")
            }
        }

        func run() throws {
            try creation.run(sources, fetching: fetching)
        }

        /// What this command line asks for, as `convert` asks for it too.
        var creation: GalleryCreation {
            GalleryCreation(output: output, title: title ?? Self.defaultTitle(for: output), date: date, id: id,
                            force: force, noSync: noSync, json: outputOptions.json, accepting: accepting.types,
                            captions: captions, pixels: pixels)
        }

        static func defaultTitle(for path: String) -> String {
            var name = GalleryFileSystem.fileName(of: path)
            if name.hasSuffix(".imagegallery") { name.removeLast(".imagegallery".count) }
            return name
        }
    }
}
