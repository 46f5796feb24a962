import GalleryFormat

/// A strict pull parser of RFC 8259 JSON over bytes in memory, reading the seed forms as it
/// goes: no tree is built, unknown members are checked and skipped, nesting is bounded, and
/// every refusal carries the JSON pointer of the value being read and its line and column.
struct SeedJSONDecoder {
    private let bytes: [UInt8]
    private let path: String
    private let limits: SeedJSON.Limits
    private var offset = 0
    private var depth = 0
    private var imageTotal = 0

    init(bytes: [UInt8], path: String, limits: SeedJSON.Limits) throws {
        self.bytes = bytes
        self.path = path
        self.limits = limits
        // Strings are copied byte for byte below, so the whole input is checked once here.
        if let bad = Self.firstInvalidUTF8(bytes) {
            offset = bad
            throw failure("is not UTF-8 (JSON text must be)", at: "")
        }
        // A byte order mark is not JSON, but editors write one; RFC 8259 lets a parser skip it.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }
    }

    // MARK: - The seed forms

    mutating func document(defaultTitle: String) throws -> SeedJSON.Document {
        skipWhitespace()
        let document: SeedJSON.Document
        switch peek() {
        case nil:
            throw failure("is empty: a seed gallery or store is a JSON object or array", at: "")
        case UInt8(ascii: "["):
            document = SeedJSON.Document(form: .store, galleries: try store(at: "", defaultTitle: defaultTitle))
        case UInt8(ascii: "{"):
            // Which form the object is follows from its members, in whatever order they come.
            let start = offset
            let keys = try memberNames()
            offset = start
            switch (keys.contains("images"), keys.contains("galleries")) {
            case (true, false):
                document = SeedJSON.Document(form: .gallery, galleries: [try gallery(at: "", defaultTitle: defaultTitle)])
            case (false, true):
                var galleries: [SeedGallery] = []
                try readObject(at: "") { decoder, key, pointer in
                    if key == "galleries" {
                        galleries = try decoder.store(at: pointer, defaultTitle: defaultTitle)
                    } else {
                        try decoder.skipValue(at: pointer)
                    }
                }
                document = SeedJSON.Document(form: .store, galleries: galleries)
            case (true, true):
                throw failure("has both \"images\" (a gallery) and \"galleries\" (a store); which one is meant is unclear", at: "")
            case (false, false):
                throw failure("is neither a gallery (an object with \"images\") nor a store (an array of galleries, "
                              + "or an object with \"galleries\")", at: "")
            }
        default:
            throw failure("is not a seed gallery or store: the JSON text must be an object or an array", at: "")
        }
        skipWhitespace()
        guard offset == bytes.count else { throw failure("has more after its JSON value", at: "") }
        return document
    }

    /// The galleries of a store's array; each gallery without a title is named after the file
    /// and its position ("store 3").
    private mutating func store(at pointer: String, defaultTitle: String) throws -> [SeedGallery] {
        guard peek() == UInt8(ascii: "[") else { throw failure("must be an array of galleries", at: pointer) }
        var galleries: [SeedGallery] = []
        try readArray(at: pointer) { decoder, index, element in
            guard index < decoder.limits.maxGalleries else {
                throw decoder.failure("a store of more than \(decoder.limits.maxGalleries) galleries is refused", at: element)
            }
            galleries.append(try decoder.gallery(at: element, defaultTitle: "\(defaultTitle) \(index + 1)"))
        }
        return galleries
    }

    private mutating func gallery(at pointer: String, defaultTitle: String) throws -> SeedGallery {
        guard peek() == UInt8(ascii: "{") else { throw failure("must be a gallery object (title and images)", at: pointer) }
        var title: String?
        var images: [SeedImage]?
        try readObject(at: pointer) { decoder, key, member in
            switch key {
            case "title":
                title = try decoder.title(at: member)
            case "images":
                images = try decoder.images(at: member)
            default:
                try decoder.skipValue(at: member)
            }
        }
        guard let images else { throw failure("a gallery must have an \"images\" array", at: pointer) }
        return SeedGallery(title: title ?? defaultTitle, hasTitle: title != nil, images: images, pointer: pointer)
    }

    /// A string or null, within the manifest's rules for a title.
    private mutating func title(at pointer: String) throws -> String? {
        if try readNull(at: pointer) { return nil }
        guard peek() == UInt8(ascii: "\"") else { throw failure("must be a string or null", at: pointer) }
        let title = try readString(at: pointer)
        guard title.unicodeScalars.count <= limits.maxTitleScalars else {
            throw failure("is longer than \(limits.maxTitleScalars) characters", at: pointer)
        }
        guard !title.unicodeScalars.contains("\0") else { throw failure("contains U+0000, which a title may not", at: pointer) }
        return title
    }

    private mutating func images(at pointer: String) throws -> [SeedImage] {
        guard peek() == UInt8(ascii: "[") else { throw failure("must be an array of images", at: pointer) }
        var images: [SeedImage] = []
        try readArray(at: pointer) { decoder, index, element in
            guard index < decoder.limits.maxImages, decoder.imageTotal < decoder.limits.maxImages else {
                throw decoder.failure("more than \(decoder.limits.maxImages) images are refused", at: element)
            }
            decoder.imageTotal += 1
            images.append(try decoder.image(at: element))
        }
        return images
    }

    private mutating func image(at pointer: String) throws -> SeedImage {
        guard peek() == UInt8(ascii: "{") else { throw failure("must be an image object (url and aspectRatio)", at: pointer) }
        var url: String?
        var imagePath: String?
        var aspectRatio: Double?
        try readObject(at: pointer) { decoder, key, member in
            switch key {
            case "url": url = try decoder.url(at: member)
            // The name the seed's drop handler gives the image's URL (`draggedImage.imagePath`).
            case "imagePath": imagePath = try decoder.url(at: member)
            case "aspectRatio": aspectRatio = try decoder.aspectRatio(at: member)
            default: try decoder.skipValue(at: member)
            }
        }
        if let url, let imagePath, url != imagePath {
            throw failure("has a \"url\" and an \"imagePath\" that differ; which one is meant is unclear", at: pointer)
        }
        guard let source = url ?? imagePath else { throw failure("an image must have a \"url\"", at: pointer) }
        return SeedImage(url: source, aspectRatio: aspectRatio, pointer: pointer)
    }

    private mutating func url(at pointer: String) throws -> String {
        guard peek() == UInt8(ascii: "\"") else { throw failure("must be a URL string", at: pointer) }
        let text = try readString(at: pointer)
        guard GalleryImage.isValidSource(text) else {
            throw failure("\(Self.quoted(text)) is not a valid absolute URL (ASCII only, no spaces, at most 8,192 characters)",
                          at: pointer)
        }
        return text
    }

    private mutating func aspectRatio(at pointer: String) throws -> Double? {
        if try readNull(at: pointer) { return nil }
        guard let first = peek(), first == UInt8(ascii: "-") || (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(first) else {
            throw failure("must be a number (width / height) or null", at: pointer)
        }
        let text = try readNumber(at: pointer)
        guard let value = Double(text), value.isFinite else { throw failure("\(text) is out of range", at: pointer) }
        guard value > 0 else { throw failure("\(text) is not a positive width / height", at: pointer) }
        return value
    }

    // MARK: - JSON

    /// The member names of the object at the current offset, its values checked and skipped.
    private mutating func memberNames() throws -> Set<String> {
        var names = Set<String>()
        try readObject(at: "") { decoder, key, member in
            names.insert(key)
            try decoder.skipValue(at: member)
        }
        return names
    }

    /// Reads an object; `member` must consume each value. Duplicate names are refused: which
    /// one the app meant cannot be known.
    private mutating func readObject(at pointer: String,
                                     _ member: (inout SeedJSONDecoder, String, String) throws -> Void) throws {
        try enter(at: pointer)
        offset += 1
        var seen = Set<String>()
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            offset += 1
            depth -= 1
            return
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else {
                throw failure(peek() == UInt8(ascii: "}") ? "a member name was expected (a trailing comma is not JSON)"
                              : "a member name (a string) was expected", at: pointer)
            }
            let key = try readString(at: pointer)
            let child = pointer + "/" + Self.escape(key)
            guard seen.insert(key).inserted else { throw failure("appears twice in the same object", at: child) }
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw failure("\":\" was expected after the member name", at: child) }
            offset += 1
            skipWhitespace()
            try member(&self, key, child)
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "}"):
                offset += 1
                depth -= 1
                return
            default: throw failure("\",\" or \"}\" was expected after the member", at: child)
            }
        }
    }

    /// Reads an array; `element` must consume each value.
    private mutating func readArray(at pointer: String,
                                    _ element: (inout SeedJSONDecoder, Int, String) throws -> Void) throws {
        try enter(at: pointer)
        offset += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            offset += 1
            depth -= 1
            return
        }
        var index = 0
        while true {
            skipWhitespace()
            let child = pointer + "/\(index)"
            try element(&self, index, child)
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "]"):
                offset += 1
                depth -= 1
                return
            default: throw failure("\",\" or \"]\" was expected after the element", at: child)
            }
            index += 1
        }
    }

    private mutating func enter(at pointer: String) throws {
        depth += 1
        guard depth <= limits.maxDepth else {
            throw failure("is nested more than \(limits.maxDepth) arrays and objects deep", at: pointer)
        }
    }

    /// Checks any value and moves past it.
    private mutating func skipValue(at pointer: String) throws {
        switch peek() {
        case UInt8(ascii: "{"): try readObject(at: pointer) { decoder, _, member in try decoder.skipValue(at: member) }
        case UInt8(ascii: "["): try readArray(at: pointer) { decoder, _, element in try decoder.skipValue(at: element) }
        case UInt8(ascii: "\""): _ = try readString(at: pointer)
        case UInt8(ascii: "t"): try literal("true", at: pointer)
        case UInt8(ascii: "f"): try literal("false", at: pointer)
        case UInt8(ascii: "n"): try literal("null", at: pointer)
        case let byte? where byte == UInt8(ascii: "-") || (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(byte):
            _ = try readNumber(at: pointer)
        case nil: throw failure("ends where a value was expected", at: pointer)
        case UInt8(ascii: "]"), UInt8(ascii: "}"): throw failure("a JSON value was expected (a trailing comma is not JSON)", at: pointer)
        default: throw failure("a JSON value was expected", at: pointer)
        }
    }

    private mutating func readNull(at pointer: String) throws -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        try literal("null", at: pointer)
        return true
    }

    private mutating func literal(_ word: StaticString, at pointer: String) throws {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes.count - offset >= expected.count, bytes[offset ..< offset + expected.count].elementsEqual(expected) else {
            throw failure("a JSON value was expected", at: pointer)
        }
        offset += expected.count
    }

    /// A number's text, checked against the JSON grammar.
    private mutating func readNumber(at pointer: String) throws -> String {
        let start = offset
        func digits() -> Int {
            let from = offset
            while let byte = peek(), (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(byte) { offset += 1 }
            return offset - from
        }
        if peek() == UInt8(ascii: "-") { offset += 1 }
        if peek() == UInt8(ascii: "0") {
            offset += 1
        } else if digits() == 0 {
            throw failure("a number must have digits", at: pointer)
        }
        if peek() == UInt8(ascii: ".") {
            offset += 1
            guard digits() > 0 else { throw failure("a number's fraction must have digits", at: pointer) }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            offset += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { offset += 1 }
            guard digits() > 0 else { throw failure("a number's exponent must have digits", at: pointer) }
        }
        return String(decoding: bytes[start ..< offset], as: UTF8.self)
    }

    /// A string's value, escapes decoded. The bytes are valid UTF-8 (checked at the start).
    private mutating func readString(at pointer: String) throws -> String {
        offset += 1
        var value: [UInt8] = []
        while true {
            guard let byte = peek() else { throw failure("ends inside a string", at: pointer) }
            switch byte {
            case UInt8(ascii: "\""):
                offset += 1
                return String(decoding: value, as: UTF8.self)
            case UInt8(ascii: "\\"):
                offset += 1
                guard let escape = peek() else { throw failure("ends inside a string", at: pointer) }
                offset += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): value.append(escape)
                case UInt8(ascii: "b"): value.append(0x08)
                case UInt8(ascii: "f"): value.append(0x0C)
                case UInt8(ascii: "n"): value.append(0x0A)
                case UInt8(ascii: "r"): value.append(0x0D)
                case UInt8(ascii: "t"): value.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4(at: pointer)
                    if (0xD800 ... 0xDBFF).contains(scalar) {
                        guard bytes.count - offset >= 2, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u")
                        else { throw failure("has a \\u escape of a lone surrogate", at: pointer) }
                        offset += 2
                        let low = try hex4(at: pointer)
                        guard (0xDC00 ... 0xDFFF).contains(low) else { throw failure("has a \\u escape of a lone surrogate", at: pointer) }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00 ... 0xDFFF).contains(scalar) {
                        throw failure("has a \\u escape of a lone surrogate", at: pointer)
                    }
                    value.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
                default:
                    offset -= 1
                    throw failure("has an invalid escape \\\(Character(Unicode.Scalar(escape)))", at: pointer)
                }
            case 0x00 ..< 0x20:
                throw failure("has a control character (U+\(String(byte, radix: 16, uppercase: true))) in a string; "
                              + "JSON requires it escaped", at: pointer)
            default:
                value.append(byte)
                offset += 1
            }
        }
    }

    private mutating func hex4(at pointer: String) throws -> UInt32 {
        guard bytes.count - offset >= 4 else { throw failure("ends inside a \\u escape", at: pointer) }
        var value: UInt32 = 0
        for byte in bytes[offset ..< offset + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0") ... UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a") ... UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A") ... UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("has a \\u escape without four hexadecimal digits", at: pointer)
            }
            value = value << 4 | UInt32(digit)
        }
        offset += 4
        return value
    }

    private func peek() -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { offset += 1 }
    }

    // MARK: - Messages

    /// A refusal at the current offset: the pointer as the entry, the line and column in the text.
    private func failure(_ message: String, at pointer: String) -> ConversionError {
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

    /// RFC 6901: "~" becomes "~0" and "/" becomes "~1".
    static func escape(_ token: String) -> String {
        token.replacingOccurrences("~", "~0").replacingOccurrences("/", "~1")
    }

    /// A value quoted for a message, cut short and with control characters escaped.
    static func quoted(_ text: String) -> String {
        let shown = text.unicodeScalars.prefix(120).map { scalar -> String in
            scalar.value < 0x20 || scalar.value == 0x7F ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
        }.joined()
        return "\"" + shown + (text.unicodeScalars.count > 120 ? "…" : "") + "\""
    }

    /// The offset of the first byte that breaks UTF-8 (overlong forms and surrogates included).
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 { index += 1; continue }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2 ... 0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1 ... 0xEC, 0xEE ... 0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1 ... 0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return index
            }
            guard index + length <= count else { return index }
            guard (low ... high).contains(bytes[index + 1]) else { return index }
            for next in 2 ..< length where bytes[index + next] & 0xC0 != 0x80 { return index }
            index += length
        }
        return nil
    }
}

private extension String {
    func replacingOccurrences(_ target: Character, _ replacement: String) -> String {
        guard contains(target) else { return self }
        return map { $0 == target ? replacement : String($0) }.joined()
    }
}
