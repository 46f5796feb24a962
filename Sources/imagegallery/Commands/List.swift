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
    /// allocated a dozen times a row: most of the listing's time at 100,000 images). Each
    /// member's separator and key are one piece of text: a call per piece, not per key and mark.
    static func appendJSON(of image: GalleryImage, at index: Int, to bytes: inout [UInt8]) {
        typealias JSON = CanonicalJSONWriter
        if let added = image.added {
            JSON.appendVerbatim("{\"added\":", to: &bytes)
            JSON.appendString(added.rfc3339, to: &bytes)
            JSON.appendVerbatim(",\"byteSize\":", to: &bytes)
        } else {
            JSON.appendVerbatim("{\"byteSize\":", to: &bytes)
        }
        JSON.appendInteger(Int64(image.byteSize), to: &bytes)
        if let caption = image.caption {
            JSON.appendVerbatim(",\"caption\":", to: &bytes)
            JSON.appendString(caption, to: &bytes)
        }
        if let filename = image.filename {
            JSON.appendVerbatim(",\"filename\":", to: &bytes)
            JSON.appendString(filename, to: &bytes)
        }
        JSON.appendVerbatim(",\"height\":", to: &bytes)
        JSON.appendInteger(Int64(image.height), to: &bytes)
        JSON.appendVerbatim(",\"id\":", to: &bytes)
        JSON.appendUUID(image.id, to: &bytes)
        JSON.appendVerbatim(",\"index\":", to: &bytes)
        JSON.appendInteger(Int64(index), to: &bytes)
        JSON.appendVerbatim(",\"mediaType\":", to: &bytes)
        JSON.appendString(image.mediaType.rawValue, to: &bytes)
        JSON.appendVerbatim(",\"path\":\"images/", to: &bytes)
        JSON.appendHex(image.sha256, to: &bytes)
        JSON.appendVerbatim(image.mediaType.blobSuffix, to: &bytes)
        JSON.appendVerbatim("\",\"sha256\":\"", to: &bytes)
        JSON.appendHex(image.sha256, to: &bytes)
        JSON.appendVerbatim("\"", to: &bytes)
        if let source = image.source {
            JSON.appendVerbatim(",\"source\":", to: &bytes)
            JSON.appendString(source, to: &bytes)
        }
        JSON.appendVerbatim(",\"width\":", to: &bytes)
        JSON.appendInteger(Int64(image.width), to: &bytes)
        bytes.append(UInt8(ascii: "}"))
    }
}

extension String {
    func padded(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
