import ArgumentParser
import GalleryFormat
import GalleryMetadata

extension ImageGallery {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List a gallery's images in gallery order."
        )

        @OptionGroup var gallery: GalleryFileArgument
        @OptionGroup var output: OutputOptions
        @OptionGroup var privacy: PrivacyOption

        struct Row: Encodable {
            var index: Int
            var id: String
            var mediaType: String
            var width: Int
            var height: Int
            var byteSize: UInt64
            var sha256: String
            var path: String
            var source: String?
            var filename: String?
            var caption: String?
            var added: String?

            /// The row as JSON, its keys sorted: written by our own writer, since JSONEncoder
            /// took most of `list --json`'s time for a large gallery (Benchmarks/RESULTS.md, ac.3).
            var json: CanonicalJSONWriter.Value {
                var members: [(String, CanonicalJSONWriter.Value)] = []
                if let added { members.append(("added", .string(added))) }
                members.append(("byteSize", .integer(Int64(byteSize))))
                if let caption { members.append(("caption", .string(caption))) }
                if let filename { members.append(("filename", .string(filename))) }
                members += [("height", .integer(Int64(height))), ("id", .string(id)), ("index", .integer(Int64(index))),
                            ("mediaType", .string(mediaType)), ("path", .string(path)), ("sha256", .string(sha256))]
                if let source { members.append(("source", .string(source))) }
                members.append(("width", .integer(Int64(width))))
                return .object(members)
            }
        }

        func run() throws {
            let reader = try GalleryReader(path: gallery.file)
            for warning in reader.diagnostics where warning.severity >= .warning { Terminal.warning(warning.description) }
            let images = reader.gallery.images
            if privacy.enabled {
                try privacy.list(PrivacyOption.survey(reader), json: output.json)
                return
            }
            func row(_ position: Int) -> Row {
                let image = images[position]
                return Row(index: position + 1, id: image.id.manifestString, mediaType: image.mediaType.rawValue,
                           width: image.width, height: image.height, byteSize: image.byteSize,
                           sha256: image.sha256.hex, path: image.path, source: image.source,
                           filename: image.filename, caption: image.caption, added: image.added?.rfc3339)
            }
            if output.json {
                // Row by row: the listing of a large gallery is never one document in memory.
                Terminal.printJSONArray(images.indices.lazy.map { row($0).json })
                return
            }
            let rows = images.indices.map(row)
            guard !rows.isEmpty else {
                print("(no images)")
                return
            }
            let indexWidth = max(1, String(rows.count).count)
            print(["#".leftPadded(indexWidth), "id".padded(36), "type".padded(10), "pixels".padded(11),
                   "bytes".leftPadded(10), "sha256".padded(16), "source"].joined(separator: "  "))
            for row in rows {
                let source = Terminal.neutralised(row.source ?? row.filename ?? "")
                print([String(row.index).leftPadded(indexWidth), row.id, row.mediaType.padded(10),
                       "\(row.width)x\(row.height)".padded(11), String(row.byteSize).leftPadded(10),
                       String(row.sha256.prefix(16)), source].joined(separator: "  "))
            }
        }
    }
}

extension String {
    func padded(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
