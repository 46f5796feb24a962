import ArgumentParser

/// The usual command lines of the commands whose work is short, recognised without the
/// argument parser. Its start-up (reflection over the command's options, and the protocol
/// conformance lookups that brings) costs about 3 ms: for `versions --json` on a
/// 10,000-image gallery, 12.7 M of 315 M instructions (callgrind), all of it before the
/// file is touched. A file manager runs the thumbnailer once per file, and scripts run
/// `info` and `versions` as often.
///
/// Only exact forms are taken: `thumbnail [-s N] IN OUT`, `info|list|versions FILE [--json]`
/// and `rename FILE TITLE [--json]`, with no argument starting with `-` but `--json` last.
/// Anything else, `--help` included, goes to the parser and behaves as it always did.
enum QuickParse {
    static func command(_ arguments: [String]) -> (any ParsableCommand)? {
        if let thumbnail = ImageGallery.Thumbnail.quickParse(arguments) { return thumbnail }
        guard let name = arguments.first else { return nil }
        var rest = Array(arguments.dropFirst())
        var json = false
        if rest.last == "--json" {
            json = true
            rest.removeLast()
        }
        guard rest.allSatisfy({ !$0.hasPrefix("-") }) else { return nil }
        var output = OutputOptions()
        output.json = json
        switch (name, rest.count) {
        case ("info", 1):
            var command = ImageGallery.Info()
            command.gallery = galleryFile(rest[0])
            command.output = output
            return command
        case ("list", 1):
            var command = ImageGallery.List()
            command.gallery = galleryFile(rest[0])
            command.output = output
            return command
        case ("versions", 1):
            var command = ImageGallery.Versions()
            command.file = rest[0]
            command.output = output
            return command
        case ("rename", 2):
            var command = ImageGallery.Rename()
            command.file = rest[0]
            command.title = rest[1]
            var edit = EditOptions()
            // Every member set: an option left at its declaration is unreadable outside the parser.
            edit.wait = 30
            edit.breakHardLinks = false
            edit.json = json
            command.edit = edit
            return command
        default:
            return nil
        }
    }

    private static func galleryFile(_ path: String) -> GalleryFileArgument {
        var argument = GalleryFileArgument()
        argument.file = path
        return argument
    }
}
