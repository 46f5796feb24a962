import ArgumentParser
import GalleryBuilder
import GalleryFormat
import GalleryImageHeaders

/// The gallery a reading subcommand works on.
struct GalleryFileArgument: ParsableArguments {
    @Argument(help: "The .imagegallery file.")
    var file: String
}

/// `--json`, for every subcommand a script may read.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print one JSON document for scripts instead of text.")
    var json = false
}

/// `--accept TYPES`: the image types `create`, `add` and `convert` take (default: every type the
/// format has). `--accept jpeg,png` is the seed apps' rule, and keeps a gallery at format 1.0.
struct AcceptOptions: ParsableArguments {
    @Option(name: .customLong("accept"), help: ArgumentHelp(
        "Take only these image types: a comma-separated list of jpeg, png, webp, gif, avif and heic (default: all).",
        discussion: "--accept jpeg,png keeps a gallery at format 1.0, which readers of format 1 open. An image of "
            + "another type is refused by name (a folder's is skipped with a warning).", valueName: "types"))
    var accept: String?

    /// The types taken, the option already checked by `validate()`.
    var types: Set<MediaType> { (try? Self.parse(accept)) ?? Set(MediaType.allCases) }

    func validate() throws { _ = try Self.parse(accept) }

    static func parse(_ text: String?) throws -> Set<MediaType> {
        guard let text else { return Set(MediaType.allCases) }
        var types = Set<MediaType>()
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let type = MediaType(named: name) else {
                throw ValidationError("--accept: \"\(name)\" is not an image type the format takes (jpeg, png, webp, gif, avif, heic)")
            }
            types.insert(type)
        }
        return types
    }
}

/// `--no-captions`: an image's own description (EXIF, XMP, PNG text) is not made its caption.
struct CaptionOptions: ParsableArguments {
    @Flag(name: .customLong("no-captions"), help: ArgumentHelp(
        "Leave captions empty instead of taking each image's own description.",
        discussion: "By default an image's caption is the description it carries: EXIF ImageDescription, XMP "
            + "dc:description, or a PNG Description text (control characters removed, at most 2,000 characters)."))
    var noCaptions = false

    /// The images as the gallery takes them: without their descriptions under `--no-captions`.
    func applied(to images: [SourceImage]) -> [SourceImage] {
        guard noCaptions else { return images }
        return images.map { image in
            var image = image
            image.description = nil
            return image
        }
    }
}

/// How `create` and `convert` may write their output: one definition of the two flags and of
/// the rule between them.
struct WriteOptions: ParsableArguments {
    @Flag(help: "Replace the output if it exists.")
    var force = false

    @Flag(help: ArgumentHelp(
        "Skip the flush to disk before a gallery or comic file is renamed into place.",
        discussion: "Faster on large galleries, like zip or tar, which never flush; but a power cut soon after "
            + "may leave the new file incomplete. Not with --force."))
    var noSync = false

    func validate() throws {
        // Replacing without a flush could lose the old file and the new one in a crash.
        if noSync, force {
            throw ValidationError("--no-sync cannot be combined with --force: a replaced file must be flushed first")
        }
    }
}
