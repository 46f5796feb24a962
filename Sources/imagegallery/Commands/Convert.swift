import ArgumentParser
import FoundationEssentials
import GalleryConvert
import GalleryFormat
import GalleryMetadata
import GallerySystem
import SystemPackage

extension ImageGallery {
    struct Convert: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "convert",
            abstract: "Convert between a gallery and folders, archives, comic books, the seed apps' JSON and a web gallery.",
            discussion: """
                The input's form is found from its content first and its name second; --from and --to override \
                that. Every direction keeps the images' order, the title and the original image bytes.

                FORMS
                  gallery    a .imagegallery file
                  unpacked   a gallery unpacked into a folder (mimetype, manifest.json, images/, thumbnail.png);
                             packing it again gives the same bytes
                  images     a folder of image files: read in natural name order (2.jpg before 10.jpg), written
                             as numbered files
                  archive    zip, tar (.gz .bz2 .xz .zst), 7z or RAR, read through libarchive (input only)
                  comic      CBZ, CBT, CB7 or CBR, with ComicInfo.xml for the title and page order; written as CBZ
                  seed-json  the seed apps' Codable JSON, one gallery or a store of many (input only): the images
                             are fetched through the cache, and a store gives one gallery per entry in OUTPUT
                  web        a static web gallery in a folder (output only); see also `imagegallery view`

                Nothing is written outside OUTPUT, and OUTPUT appears whole or not at all. Entries of an archive \
                are read as data and never extracted by name: a name with .. or /, a link, a device or anything \
                that is not an image of a type the format takes is skipped with a warning.
                """
        )

        @Argument(help: "What to convert: a file or a folder.")
        var input: String

        @Argument(help: "Where to write the result: a file or a folder, which must not exist unless --force is given.")
        var output: String

        @Option(help: ArgumentHelp("The input's form (default: detected).", valueName: "form"))
        var from: ConversionFormat?

        @Option(help: ArgumentHelp("The output's form (default: comic for a .cbz name; unpacked for a gallery into a "
                                   + "name without extension; else gallery).", valueName: "form"))
        var to: ConversionFormat?

        @Option(help: "The title of a gallery made from images, an archive or a comic (default: from ComicInfo.xml, else the input's name).")
        var title: String?

        @OptionGroup var writing: WriteOptions
        var force: Bool { writing.force }
        var noSync: Bool { writing.noSync }

        @Flag(help: "Seed JSON: use only the cache of fetched images; an image not in it is reported.")
        var offline = false

        @OptionGroup var fetching: FetchCommandOptions
        @OptionGroup var accepting: AcceptOptions
        @OptionGroup var captions: CaptionOptions
        @OptionGroup var pixels: PixelCheckOptions

        @Flag(help: ArgumentHelp("To a comic: keep GIF, AVIF and HEIC pages as they are.",
                                 discussion: "Comic readers show JPEG, PNG and WebP; without this flag a page of another type "
                                     + "becomes a JPEG of the upright picture at full size."))
        var keepOriginals = false
        @Option(help: ArgumentHelp(
            "From a gallery to a web gallery, a comic or a folder: remove location, identity (which includes location), all "
                + "metadata, or none from the images written (default: location for a web gallery, none otherwise).",
            discussion: "Nothing is re-encoded: only metadata structures are rewritten, and orientation and the colour "
                + "profile stay. --strip none writes the originals byte for byte.", valueName: "what"))
        var strip: String?
        @Option(help: ArgumentHelp(
            "To a web gallery: the absolute http(s) address the folder will be published at.",
            discussion: "With it the index carries Open Graph and Twitter card tags (the cover as the picture) and its "
                + "JSON-LD gives absolute addresses; without it neither is guessed.", valueName: "url"))
        var baseURL: String?
        @OptionGroup var outputOptions: OutputOptions

        func validate() throws {
            if let from, !from.isReadable { throw ValidationError("--from \(from.rawValue): that form can only be written") }
            if let to, !to.isWritable { throw ValidationError("--to \(to.rawValue): that form can only be read") }
            if let title, let problem = ManifestRules.titleProblem(title) {
                throw ValidationError("--title: \(problem) (IG-MAN-008)")
            }
            if baseURL != nil {
                if to != .web { throw ValidationError("--base-url is for --to web only") }
                _ = try baseAddress()
            }
            if let strip, MetadataScope(option: strip) == nil {
                throw ValidationError("--strip \(strip): choose location, identity, all or none")
            }
        }

        /// `--strip`, or the target's default: a web gallery is made to be published, so its
        /// images leave their location behind unless the owner says otherwise.
        func stripScope(for target: ConversionFormat) -> MetadataScope {
            strip.flatMap(MetadataScope.init(option:)) ?? (target == .web ? .location : [])
        }

        func run() throws {
            let detected: FormatDetection.Detected
            do {
                if let from {
                    // libarchive still wants to know the family, which the content tells.
                    detected = FormatDetection.Detected(format: from, archive: try? FormatDetection.detect(input).archive)
                } else {
                    detected = try FormatDetection.detect(input)
                }
            } catch let error as ConversionError {
                throw CommandFailure(message: error.description, status: PathKind.of(FilePath(input)) == .missing ? ExitStatus.noInput : ExitStatus.dataError)
            }
            let target = to ?? Self.defaultOutput(for: output, from: detected.format)
            guard detected.format != target || detected.format == .gallery else {
                throw CommandFailure(message: "\(input): is already \(target.rawValue); nothing to convert", status: ExitStatus.usage)
            }
            try convert(detected, to: target)
        }

        static func defaultOutput(for path: String, from input: ConversionFormat) -> ConversionFormat {
            if let named = FormatDetection.outputFormat(for: path) { return named }
            switch input {
            case .gallery: return GalleryFileSystem.components(of: path).last?.contains(".") == true ? .gallery : .unpacked
            default: return .gallery
            }
        }
    }
}

extension ImageGallery.Convert {
    /// Each direction the issue names; others go through a gallery, which the message says.
    func convert(_ input: FormatDetection.Detected, to target: ConversionFormat) throws {
        switch (input.format, target) {
        case (.gallery, .unpacked): try unpack()
        case (.unpacked, .gallery): try pack()
        case (.images, .gallery): try importImages()
        case (.gallery, .images): try exportImages()
        case (.archive, .gallery), (.comic, .gallery): try importArchive(input.archive)
        case (.gallery, .comic): try exportComic()
        case (.seedJSON, .gallery): try convertSeedJSON()
        case (.gallery, .web): try exportWeb()
        default:
            throw CommandFailure(message: "\(input.format.rawValue) cannot be converted to \(target.rawValue) directly; "
                                 + "convert it to a gallery first", status: ExitStatus.usage)
        }
    }
}

extension ConversionFormat: ExpressibleByArgument {}
