import ArgumentParser
import GalleryDocument
import GalleryMetadata

extension ImageGallery {
    struct Strip: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "strip",
            abstract: "Remove location (by default), identity or all metadata from a gallery's images, without re-encoding.",
            discussion: """
                Only metadata structures are rewritten (EXIF, XMP, IPTC, PNG text, the WebP and GIF metadata \
                blocks, the AVIF and HEIC Exif and XMP items): the pixels are the same bytes. Orientation and \
                the colour profile always stay; so does copyright. It is one edit: a new revision, image ids, \
                order and captions kept. An image whose metadata cannot be rewritten safely (a broken EXIF \
                directory, a motion photo's appended video) is left as it is and named. Versions this machine \
                kept of the gallery before (`imagegallery versions`) still hold the originals: \
                `imagegallery versions --purge FILE` removes them.
                """)

        @Argument(help: "The .imagegallery file.") var file: String
        @Flag(help: "Remove location: the EXIF GPS directory, XMP exif:GPS…, XMP and IPTC place names (the default).")
        var location = false
        @Flag(help: "Remove identity: camera and lens serial numbers, the MakerNote, the owner's name, the artist.")
        var identity = false
        @Flag(help: "Remove all metadata but orientation and the colour profile.") var allMetadata = false
        @Flag(help: "Replace original file names with neutral ones from positions (001.jpg, 002.png…).") var names = false
        @OptionGroup var edit: EditOptions

        struct Report: Encodable {
            var edit: EditReport
            var scope: String
            var metadata: MetadataStripReport
            var versionsKept: Int
        }

        var scope: MetadataScope {
            var scope: MetadataScope = []
            if location { scope.insert(.location) }
            if identity { scope.insert(.identity) }
            if allMetadata { scope.insert(.allMetadata) }
            return scope.isEmpty && !names ? .location : scope
        }

        func run() async throws {
            let document = try await DocumentCommand.openForEditing(file, options: edit.documentOptions)
            let progress = LazyProgress("Stripping")
            let metadata = try await document.stripMetadata(scope, neutralNames: names) { done, total in
                progress.update(count: done, of: total)
            }
            progress.finish()
            let versionsKept = try await document.otherVersions().count
            let report = Report(edit: try await DocumentCommand.finish(document), scope: scope.description,
                                metadata: metadata, versionsKept: versionsKept)
            if edit.json {
                try Terminal.printJSON(report)
            } else {
                printText(report)
            }
            if report.edit.outcome == "kept-as-version" { throw ExitCode(ExitStatus.conflict) }
        }

        private func printText(_ report: Report) {
            let metadata = report.metadata
            for left in metadata.left {
                Terminal.warning("image \(left.position) left as it was: \(left.reason)")
            }
            if report.edit.outcome == "kept-as-version" {
                Terminal.warning("\(file): someone else changed the file; the strip was kept as version "
                                 + "\(report.edit.version ?? "?") (see `imagegallery versions`)")
                return
            }
            var line = scope.isEmpty ? "" : "removed \(report.scope) from \(metadata.changed.count) of \(report.edit.imageCount) images"
            if names { line += (line.isEmpty ? "" : "; ") + "renamed \(metadata.renamed) images" }
            print(Terminal.neutralised("\(file): \(line)" + (report.edit.outcome == "unchanged" ? " (nothing to change)" : "")))
            for changed in metadata.changed where !changed.removed.isEmpty {
                print(Terminal.neutralised("  \(changed.position): " + changed.removed.joined(separator: ", ")))
            }
            guard report.edit.outcome == "saved" else { return }
            // What was removed is gone from this file only: say where else it still is.
            if report.versionsKept > 0 {
                print("\(report.versionsKept) earlier version(s) of this gallery kept on this machine still hold the originals: "
                      + "`imagegallery versions --purge -- \(file)` removes them")
            } else {
                print("no earlier version of this gallery is kept on this machine; copies elsewhere (backups, sync "
                      + "histories, git) still hold the originals")
            }
        }
    }
}
