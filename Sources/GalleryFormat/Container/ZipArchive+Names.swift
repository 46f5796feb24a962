/// The rules for entry names: what may be extracted safely and named unambiguously.
extension ZipArchive {
    /// Name rules: valid UTF-8, no control characters, relative, no `..`, no backslash or drive.
    static func checkedName(_ bytes: UnsafeRawBufferPointer, limits: GalleryLimits, file: String, offset: UInt64) throws -> String {
        if bytes.count <= limits.maxEntryNameBytes, let name = plainName(bytes) { return name }
        let location = Location(file: file, offset: offset)
        guard bytes.count <= limits.maxEntryNameBytes else {
            throw GalleryError(.nameTooLong, "an entry name is \(bytes.count) bytes long; the limit is "
                               + "\(limits.maxEntryNameBytes)", location: location)
        }
        guard !bytes.isEmpty else { throw GalleryError(.unsafeName, "an entry has an empty name", location: location) }
        guard let name = String(validating: bytes, as: UTF8.self) else {
            throw GalleryError(.badNameEncoding, "an entry name is not valid UTF-8", location: location)
        }
        var place = location
        place.entry = name
        if bytes.contains(where: { $0 < 0x20 || $0 == 0x7F })
            || name.unicodeScalars.contains(where: { (0x80 ... 0x9F).contains($0.value) }) {
            throw GalleryError(.badNameEncoding, "the entry name contains NUL or control characters", location: place)
        }
        if bytes.contains(UInt8(ascii: "\\")) {
            throw GalleryError(.unsafeName, "the entry name contains a backslash", location: place)
        }
        if bytes.first == UInt8(ascii: "/") {
            throw GalleryError(.unsafeName, "the entry name is absolute", location: place)
        }
        if bytes.count >= 2, bytes[1] == UInt8(ascii: ":"), (bytes[0] | 0x20) >= 0x61, (bytes[0] | 0x20) <= 0x7A {
            throw GalleryError(.unsafeName, "the entry name starts with a drive letter", location: place)
        }
        var components = Array(bytes).split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        if components.last?.isEmpty == true { components.removeLast() }  // a directory's trailing slash
        for component in components {
            if component.isEmpty {
                throw GalleryError(.unsafeName, "the entry name has an empty path component", location: place)
            }
            if component.elementsEqual([0x2E, 0x2E]) || component.elementsEqual([0x2E]) {
                throw GalleryError(.unsafeName, "the entry name has a \"\(String(decoding: component, as: UTF8.self))\" component",
                                   location: place)
            }
        }
        return name
    }

    /// The common case in one pass: lowercase ASCII letters, digits, `-`, `_`, single dots and
    /// single slashes, not starting with `/` or `.`. Anything else takes the full check.
    static func plainName(_ bytes: UnsafeRawBufferPointer) -> String? {
        guard !bytes.isEmpty else { return nil }
        var previous: UInt8 = UInt8(ascii: "/")
        var offset = 0
        while offset < bytes.count {
            // Eight letters or digits at once: a blob's name is 64 of them between "images/" and
            // its extension, and no rule looks at them but the class they are in.
            if offset + 8 <= bytes.count,
               isLowercaseOrDigits(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))) {
                previous = bytes[offset + 7]
                offset += 8
                continue
            }
            let byte = bytes[offset]
            offset += 1
            switch byte {
            case UInt8(ascii: "a") ... UInt8(ascii: "z"), UInt8(ascii: "0") ... UInt8(ascii: "9"), UInt8(ascii: "-"),
                 UInt8(ascii: "_"):
                break
            case UInt8(ascii: "."), UInt8(ascii: "/"):
                if previous == UInt8(ascii: "/") || previous == UInt8(ascii: ".") { return nil }
            default:
                return nil
            }
            previous = byte
        }
        if previous == UInt8(ascii: ".") { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// True when every byte of the word is `a` to `z` or `0` to `9`.
    @inline(__always)
    static func isLowercaseOrDigits(_ word: UInt64) -> Bool {
        guard word & ByteWord.high == 0 else { return false }
        return ByteWord.marks(UInt8(ascii: "a") ... UInt8(ascii: "z"), in: word)
            | ByteWord.marks(UInt8(ascii: "0") ... UInt8(ascii: "9"), in: word) == ByteWord.high
    }

    /// True when the name holds no uppercase ASCII letter and nothing outside ASCII: such a name
    /// is its own full case folding. Eight bytes a step: byte by byte, this test of every name
    /// was a third of the central directory's own parsing.
    static func foldsToItself(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            guard word & ByteWord.high == 0, ByteWord.marks(UInt8(ascii: "A") ... UInt8(ascii: "Z"), in: word) == 0 else {
                return false
            }
            offset += 8
        }
        return bytes[offset...].allSatisfy { $0 < 0x80 && !($0 >= 0x41 && $0 <= 0x5A) }
    }
}
