import ArgumentParser
import GalleryDocument
import GalleryFormat

// git integration: a merge driver that merges galleries by image id, and a textconv listing
// so that `git diff` shows what changed. See the README for the .gitattributes and config.
extension ImageGallery {
    struct MergeDriver: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "merge-driver",
            abstract: "git merge driver: merge %O %A %B into %A, three-way by image id.",
            discussion: """
                Exit 0 when the merge is clean, 1 when both sides changed the same thing (ours is kept, the \
                conflicts are listed on standard error); either way %A is left a valid gallery. Any other \
                failure (a side that is not a gallery) exits with the usual codes and leaves %A untouched.
                """)

        @Argument(help: "%O: the common ancestor (may be empty).") var base: String
        @Argument(help: "%A: ours, replaced by the result.") var ours: String
        @Argument(help: "%B: theirs.") var theirs: String

        func run() throws {
            let outcome = try GalleryMerge.mergeFiles(base: base, ours: ours, theirs: theirs, output: ours)
            for conflict in outcome.conflicts {
                if conflict.isNotice { Terminal.warning("\(ours): \(conflict)") } else { Terminal.error("merge conflict in \(ours): \(conflict)") }
            }
            if !outcome.isClean { throw ExitCode(ExitStatus.mergeConflict) }
        }
    }

    struct Textconv: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "textconv",
            abstract: "Print a gallery as stable text, one line per image (git's textconv, for `git diff`).",
            discussion: """
                The first lines give the title, the document id and a chosen cover's id; then one line per image in gallery order: \
                position, id, the first 16 hex digits of its SHA-256, type, pixel size, bytes, file name and \
                caption, separated by tabs. Revision and modification time are left out: they change on \
                every save and would hide the real differences.
                """)

        @Argument(help: "The .imagegallery file.") var file: String

        func run() throws {
            let gallery = try GalleryReader(path: file).gallery
            var lines = ["title\t\(Self.escaped(gallery.title))", "id\t\(gallery.id.manifestString)"]
            // Only a chosen cover: a gallery without one diffs as it always did.
            if let cover = gallery.cover { lines.append("cover\t\(cover.manifestString)") }
            for (index, image) in gallery.images.enumerated() {
                lines.append([String(index + 1), image.id.manifestString, String(image.sha256.hex.prefix(16)),
                              image.mediaType.rawValue, "\(image.width)x\(image.height)", String(image.byteSize),
                              Self.escaped(image.filename ?? ""), Self.escaped(image.caption ?? "")]
                    .joined(separator: "\t"))
            }
            print(lines.joined(separator: "\n"))
        }

        /// One line per image whatever the text holds.
        static func escaped(_ text: String) -> String {
            text.replacingScalars(["\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"])
        }
    }
}
