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

        struct Row {
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
                Terminal.printJSONRows(images.count) { position, bytes in Self.appendJSON(of: images[position], at: position + 1, to: &bytes) }
                ImageGallery.succeed(holding: reader)
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

extension ImageGallery.List {
    /// A row of `list --json`, keys in byte order, written straight to bytes (the value tree
    /// allocated a dozen times a row: most of the listing's time at 100,000 images), and in one
    /// piece of scratch space appended at once. Each member's separator and key are one piece
    /// of text: a call per piece, not per key and mark.
    static func appendJSON(of image: GalleryImage, at index: Int, to bytes: inout [UInt8]) {
        typealias Text = JSONTextCursor
        let added = image.added?.rfc3339
        var bound = rowFrame + Text.stringBytes(image.mediaType.rawValue)
        bound += (added.map(Text.stringBytes) ?? 0) + (image.caption.map(Text.stringBytes) ?? 0)
        bound += (image.filename.map(Text.stringBytes) ?? 0) + (image.source.map(Text.stringBytes) ?? 0)
        CanonicalJSONWriter.appendText(atMost: bound, to: &bytes) { row in
            if let added {
                row.verbatim("{\"added\":")
                row.string(added)
                row.verbatim(",\"byteSize\":")
            } else {
                row.verbatim("{\"byteSize\":")
            }
            row.integer(Int64(image.byteSize))
            row.string(after: ",\"caption\":", image.caption)
            row.string(after: ",\"filename\":", image.filename)
            row.verbatim(",\"height\":")
            row.integer(Int64(image.height))
            row.verbatim(",\"id\":")
            row.uuid(image.id)
            row.verbatim(",\"index\":")
            row.integer(Int64(index))
            row.verbatim(",\"mediaType\":")
            row.string(image.mediaType.rawValue)
            row.verbatim(",\"path\":\"images/")
            row.hex(image.sha256)
            row.verbatim(image.mediaType.blobSuffix)
            row.verbatim("\",\"sha256\":\"")
            row.hex(image.sha256)
            row.verbatim("\"")
            row.string(after: ",\"source\":", image.source)
            row.verbatim(",\"width\":")
            row.integer(Int64(image.width))
            row.verbatim("}")
        }
    }

    /// What a row holds beside its strings, at most: its keys and marks (131 bytes with every
    /// member), four integers, an id and a digest twice, and a suffix of up to five bytes.
    private static let rowFrame = 131 + 4 * JSONTextCursor.integerBytes + JSONTextCursor.uuidBytes
        + 2 * JSONTextCursor.hexBytes + 5
}

extension String {
    func padded(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
