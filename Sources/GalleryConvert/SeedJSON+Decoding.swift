import GalleryFormat

/// Reads the seed forms as it goes with GalleryFormat's strict JSON scanner, the manifest's own:
/// no tree is built, unknown members are checked and skipped, nesting is bounded, and every
/// refusal carries the JSON pointer of the value being read and its line and column.
struct SeedJSONDecoder {
    private let bytes: [UInt8]
    private let path: String
    private let limits: SeedJSON.Limits
    private var imageTotal = 0

    init(bytes: [UInt8], path: String, limits: SeedJSON.Limits) throws {
        self.bytes = bytes
        self.path = path
        self.limits = limits
        // The scanner checks UTF-8 string by string and names the string; checked whole here
        // first, a refusal names the very byte at fault.
        if let bad = UTF8Validation.firstInvalidByte(in: bytes) {
            throw failure("is not UTF-8 (JSON text must be)", pointer: "", offset: bad)
        }
    }

    // MARK: - The seed forms

    /// How the top-level value holds its galleries.
    private enum Shape { case array, gallery, storeObject }

    mutating func document(defaultTitle: String) throws -> SeedJSON.Document {
        let (bytes, maxDepth) = (bytes, limits.maxDepth)
        do {
            // Which form an object is follows from its members, in whatever order they come: it is
            // read twice, first for its member names (every value checked and skipped).
            let shape = try JSONScanner.read(bytes, maxDepth: maxDepth) { reader in try self.shape(&reader) }
            return try JSONScanner.read(bytes, maxDepth: maxDepth) { reader in
                let document = try self.document(&reader, shape: shape, defaultTitle: defaultTitle)
                try reader.finish()
                return document
            }
        } catch let error as GalleryError {
            // The scanner's refusals, in this file's terms: the pointer as the entry, line and column.
            let offset = Int(error.location.offset ?? 0)
            throw failure(error.message + trailingCommaHint(at: offset), pointer: error.location.jsonPointer ?? "", offset: offset)
        }
    }

    private func shape(_ reader: inout JSONScanner) throws -> Shape {
        reader.skipByteOrderMark()
        if try reader.isAtEnd() { throw failure("is empty: a seed gallery or store is a JSON object or array", reader) }
        switch try reader.peekKind() {
        case .array:
            return .array
        case .object:
            let start = reader.offset
            var names = Set<String>()
            try reader.readObject { reader, key in
                names.insert(key)
                try reader.skipValue()
            }
            switch (names.contains("images"), names.contains("galleries")) {
            case (true, false): return .gallery
            case (false, true): return .storeObject
            case (true, true):
                throw failure("has both \"images\" (a gallery) and \"galleries\" (a store); which one is meant is unclear",
                              pointer: "", offset: start)
            case (false, false):
                throw failure("is neither a gallery (an object with \"images\") nor a store (an array of galleries, "
                              + "or an object with \"galleries\")", pointer: "", offset: start)
            }
        default:
            throw failure("is not a seed gallery or store: the JSON text must be an object or an array", reader)
        }
    }

    private mutating func document(_ reader: inout JSONScanner, shape: Shape, defaultTitle: String) throws -> SeedJSON.Document {
        reader.skipByteOrderMark()
        switch shape {
        case .array:
            return SeedJSON.Document(form: .store, galleries: try store(&reader, defaultTitle: defaultTitle))
        case .gallery:
            return SeedJSON.Document(form: .gallery, galleries: [try gallery(&reader, defaultTitle: defaultTitle)])
        case .storeObject:
            var galleries: [SeedGallery] = []
            try reader.readObject { reader, key in
                if key == "galleries" {
                    galleries = try store(&reader, defaultTitle: defaultTitle)
                } else {
                    try reader.skipValue()
                }
            }
            return SeedJSON.Document(form: .store, galleries: galleries)
        }
    }

    /// The galleries of a store's array; each gallery without a title is named after the file
    /// and its position ("store 3").
    private mutating func store(_ reader: inout JSONScanner, defaultTitle: String) throws -> [SeedGallery] {
        guard try reader.peekKind() == .array else { throw failure("must be an array of galleries", reader) }
        var galleries: [SeedGallery] = []
        try reader.readArray { reader, index in
            // Peeked first so that a refusal's column is the element's, not the whitespace's before it.
            _ = try reader.peekKind()
            guard index < limits.maxGalleries else {
                throw failure("a store of more than \(limits.maxGalleries) galleries is refused", reader)
            }
            galleries.append(try gallery(&reader, defaultTitle: "\(defaultTitle) \(index + 1)"))
        }
        return galleries
    }

    private mutating func gallery(_ reader: inout JSONScanner, defaultTitle: String) throws -> SeedGallery {
        guard try reader.peekKind() == .object else { throw failure("must be a gallery object (title and images)", reader) }
        var title: String?
        var images: [SeedImage]?
        try reader.readObject { reader, key in
            switch key {
            case "title": title = try self.title(&reader)
            case "images": images = try self.images(&reader)
            default: try reader.skipValue()
            }
        }
        guard let images else { throw failure("a gallery must have an \"images\" array", reader) }
        return SeedGallery(title: title ?? defaultTitle, hasTitle: title != nil, images: images, pointer: reader.pointer)
    }

    /// A string or null, within the manifest's rules for a title.
    private func title(_ reader: inout JSONScanner) throws -> String? {
        switch try reader.peekKind() {
        case .null:
            try reader.readNull()
            return nil
        case .string:
            let title = try reader.readString()
            guard title.unicodeScalars.count <= limits.maxTitleScalars else {
                throw failure("is longer than \(limits.maxTitleScalars) characters", reader)
            }
            guard !title.unicodeScalars.contains("\0") else { throw failure("contains U+0000, which a title may not", reader) }
            return title
        default:
            throw failure("must be a string or null", reader)
        }
    }

    private mutating func images(_ reader: inout JSONScanner) throws -> [SeedImage] {
        guard try reader.peekKind() == .array else { throw failure("must be an array of images", reader) }
        var images: [SeedImage] = []
        try reader.readArray { reader, index in
            _ = try reader.peekKind()
            guard index < limits.maxImages, imageTotal < limits.maxImages else {
                throw failure("more than \(limits.maxImages) images are refused", reader)
            }
            imageTotal += 1
            images.append(try image(&reader))
        }
        return images
    }

    private func image(_ reader: inout JSONScanner) throws -> SeedImage {
        guard try reader.peekKind() == .object else { throw failure("must be an image object (url and aspectRatio)", reader) }
        var url: String?
        var imagePath: String?
        var aspectRatio: Double?
        try reader.readObject { reader, key in
            switch key {
            case "url": url = try self.url(&reader)
            // The name the seed's drop handler gives the image's URL (`draggedImage.imagePath`).
            case "imagePath": imagePath = try self.url(&reader)
            case "aspectRatio": aspectRatio = try self.aspectRatio(&reader)
            default: try reader.skipValue()
            }
        }
        if let url, let imagePath, url != imagePath {
            throw failure("has a \"url\" and an \"imagePath\" that differ; which one is meant is unclear", reader)
        }
        guard let source = url ?? imagePath else { throw failure("an image must have a \"url\"", reader) }
        return SeedImage(url: source, aspectRatio: aspectRatio, pointer: reader.pointer)
    }

    private func url(_ reader: inout JSONScanner) throws -> String {
        guard try reader.peekKind() == .string else { throw failure("must be a URL string", reader) }
        let text = try reader.readString()
        guard GalleryImage.isValidSource(text) else {
            throw failure("\(Self.quoted(text)) is not a valid absolute URL (ASCII only, no spaces, at most 8,192 characters)",
                          reader)
        }
        return text
    }

    private func aspectRatio(_ reader: inout JSONScanner) throws -> Double? {
        switch try reader.peekKind() {
        case .null:
            try reader.readNull()
            return nil
        case .number:
            // Messages quote the number as written: "1e400", not "inf".
            let start = reader.offset
            let value = try reader.readNumber().doubleValue
            let text = String(decoding: bytes[start ..< reader.offset], as: UTF8.self)
            guard value.isFinite else { throw failure("\(text) is out of range", reader) }
            guard value > 0 else { throw failure("\(text) is not a positive width / height", reader) }
            return value
        default:
            throw failure("must be a number (width / height) or null", reader)
        }
    }

    // MARK: - Messages

    /// A refusal of the value the reader stands at, or has just read.
    private func failure(_ message: String, _ reader: borrowing JSONScanner) -> ConversionError {
        failure(message, pointer: reader.pointer, offset: reader.offset)
    }

    /// A refusal: the pointer as the entry, the line and column in the text.
    private func failure(_ message: String, pointer: String, offset: Int) -> ConversionError {
        var line = 1
        var lineStart = 0
        let end = min(offset, bytes.count)
        for index in 0 ..< end where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        // Columns count characters, not bytes (continuation bytes are skipped).
        let column = 1 + bytes[lineStart ..< end].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        return ConversionError(path, entry: pointer.isEmpty ? nil : pointer,
                               "\(message) (line \(line), column \(column))")
    }

    /// " (a trailing comma is not JSON)" when the refusal is at a closing bracket that follows a
    /// comma, the slip hand edits make most, which the scanner words as a value or key missing.
    private func trailingCommaHint(at offset: Int) -> String {
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "]") || bytes[offset] == UInt8(ascii: "}") else { return "" }
        let before = bytes[..<offset].last { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }
        return before == UInt8(ascii: ",") ? " (a trailing comma is not JSON)" : ""
    }

    /// A value quoted for a message, cut short and with control characters escaped.
    static func quoted(_ text: String) -> String {
        let shown = text.unicodeScalars.prefix(120).map { scalar -> String in
            scalar.value < 0x20 || scalar.value == 0x7F ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
        }.joined()
        return "\"" + shown + (text.unicodeScalars.count > 120 ? "…" : "") + "\""
    }
}
