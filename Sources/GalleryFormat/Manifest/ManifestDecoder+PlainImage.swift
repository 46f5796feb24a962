import FoundationEssentials
import GalleryImageHeaders
import func Glibc.memcmp

/// The images of a manifest as writers write them, read in one pass over their bytes.
///
/// Nearly every image record a reader meets is plain: known members, strings without escapes,
/// values every rule accepts. For those, the general walk (a closure per member, a path entry
/// per key, a kind check per value) costs five times the bytes' own reading, and at 100,000
/// images it was most of an open. `plainImage` reads such a record directly and gives up,
/// leaving the scanner where it was, at the first thing it does not expect: an escape, an
/// unknown or repeated member, a value any rule would report, a record that runs past the
/// text already inflated. The general walk then reads that record, so every finding, its
/// place and its wording stay the general walk's. The values are judged by the same functions
/// (`UUID(textBytes:)`, `SHA256Digest(hexBytes:)`, `isBlobPath`, `isSafeFilename(utf8:)`, the
/// ranges of `ManifestRules`), so a record is accepted here only where the general walk would
/// accept it without a word.
extension ManifestDecoder {
    /// The image at the scanner, or nil (the scanner unmoved) when the general walk must read it.
    mutating func plainImage(_ scanner: inout JSONScanner) -> GalleryImage? {
        // The general walk would enter one more level here; where that is refused, it says so.
        guard scanner.depth + 1 <= scanner.maxDepth, scanner.maxMembers >= imageKeyCount else { return nil }
        var record = PlainRecord(bytes: scanner.bytes, position: scanner.position)
        guard record.take(UInt8(ascii: "{")) else { return nil }

        var id: UUID?
        var path: Range<Int>?
        var mediaType: MediaType?
        var width: Int64?
        var height: Int64?
        var byteSize: Int64?
        var sha256: SHA256Digest?
        var shaHex: Range<Int>?
        var source: String?
        var filename: String?
        var caption: String?
        var added: Timestamp?
        var seen: UInt32 = 0

        while true {
            guard let position = record.imageKey(), seen & (1 << position) == 0,
                  record.take(UInt8(ascii: ":")) else { return nil }
            seen |= 1 << position
            switch position {
            case 0:
                guard let text = record.string(length: 36), let value = UUID(textBytes: record.slice(text)) else { return nil }
                id = value
            case 1:
                guard let text = record.string() else { return nil }
                path = text.range
            case 2:
                guard let text = record.string(), let value = Self.mediaType(record.slice(text.range)) else { return nil }
                mediaType = value
            case 3: guard let value = record.integer(in: ManifestRules.pixelDimensions) else { return nil }; width = value
            case 4: guard let value = record.integer(in: ManifestRules.pixelDimensions) else { return nil }; height = value
            case 5: guard let value = record.integer(in: ManifestRules.byteSizes) else { return nil }; byteSize = value
            case 6:
                guard let text = record.string(length: 64), let value = SHA256Digest(hexBytes: record.slice(text)) else {
                    return nil
                }
                sha256 = value
                shaHex = text
            case 7:
                // Bytes, not scalars, against the limit: a longer source is left to the general count.
                guard let text = record.string(), text.range.count <= ManifestRules.maxSourceScalars,
                      Self.isAbsoluteURI(utf8: record.slice(text.range)) else { return nil }
                if keepsText { source = record.text(text.range) }
            case 8:
                guard let text = record.string(), GalleryImage.isSafeFilename(utf8: record.slice(text.range)) else { return nil }
                if keepsText { filename = record.text(text.range) }
            case 9:
                guard let text = record.string(), text.range.count <= ManifestRules.maxCaptionScalars else { return nil }
                if keepsText { caption = record.text(text.range) }
            case 10:
                guard let text = record.string(), text.range.count <= ManifestRules.maxTimestampScalars,
                      let value = Timestamp(rfc3339: record.text(text.range)) else { return nil }
                added = value
            default:
                return nil
            }
            if record.take(UInt8(ascii: ",")) { continue }
            guard record.take(UInt8(ascii: "}")) else { return nil }
            break
        }
        guard let id, let path, let mediaType, let width, let height, let byteSize, let sha256, let shaHex,
              Self.isBlobPath(record.slice(path), sha256Hex: record.slice(shaHex), mediaType: mediaType) else { return nil }
        scanner.position = record.position
        return GalleryImage(id: id, mediaType: mediaType, width: Int(width), height: Int(height), byteSize: UInt64(byteSize),
                            sha256: sha256, source: source, filename: filename, caption: caption, added: added)
    }
}

/// A cursor over the text already in the scanner's window. It never asks for more: a record
/// that runs past the window is the general walk's, which pulls text as it always did.
struct PlainRecord {
    let bytes: UnsafeRawBufferPointer
    var position: Int

    /// Steps over white space and then `byte`; false when something else comes first.
    @inline(__always)
    mutating func take(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    @inline(__always)
    mutating func skipWhitespace() {
        guard position < bytes.count, bytes[position] <= 0x20 else { return }
        // A line's indentation at once (see `JSONScanner.skipWhitespace`).
        let (stop, found) = JSONScanner.firstMarked(in: bytes, from: position, by: JSONScanner.nonWhitespaceBytes)
        position = stop
        if found { return }
        while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x0A || bytes[position] == 0x0D
            || bytes[position] == 0x09 { position += 1 }
    }

    /// The image key at the cursor, by its place in `ManifestDecoder.imageKeys`, when it is one
    /// of them. Told apart by its first bytes and compared in place: scanning a key for its end
    /// and then matching it cost more than the rest of the record. PlainImageTests holds the
    /// names and places here to `imageKeys`.
    mutating func imageKey() -> Int? {
        guard take(UInt8(ascii: "\"")), position + 1 < bytes.count else { return nil }
        let (index, name): (Int, StaticString)
        switch bytes[position] {
        case UInt8(ascii: "i"): (index, name) = (0, "id")
        case UInt8(ascii: "p"): (index, name) = (1, "path")
        case UInt8(ascii: "m"): (index, name) = (2, "mediaType")
        case UInt8(ascii: "w"): (index, name) = (3, "width")
        case UInt8(ascii: "h"): (index, name) = (4, "height")
        case UInt8(ascii: "b"): (index, name) = (5, "byteSize")
        case UInt8(ascii: "s"): (index, name) = bytes[position + 1] == UInt8(ascii: "h") ? (6, "sha256") : (7, "source")
        case UInt8(ascii: "f"): (index, name) = (8, "filename")
        case UInt8(ascii: "c"): (index, name) = (9, "caption")
        case UInt8(ascii: "a"): (index, name) = (10, "added")
        default: return nil
        }
        let count = name.utf8CodeUnitCount
        guard position + count < bytes.count, bytes[position + count] == UInt8(ascii: "\""),
              memcmp(name.utf8Start, bytes.baseAddress! + position, count) == 0 else { return nil }
        position += count + 1
        return index
    }

    /// A string whose value has `length` bytes, as a UUID or a digest has: where its bytes lie.
    /// Only its closing quote is looked for; the value's own parser refuses any byte that is not
    /// a digit, a letter or a hyphen, so a quote, an escape or a control byte inside fails there.
    mutating func string(length: Int) -> Range<Int>? {
        guard take(UInt8(ascii: "\"")), position + length < bytes.count,
              bytes[position + length] == UInt8(ascii: "\"") else { return nil }
        defer { position += length + 1 }
        return position ..< position + length
    }

    /// A string with no escape: where its bytes lie, and whether they are all ASCII. Nil for an
    /// escape, a control byte or invalid UTF-8, which the general walk reports or decodes.
    mutating func string() -> (range: Range<Int>, ascii: Bool)? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = position
        var ascii = true
        while true {
            position = JSONScanner.firstMarked(in: bytes, from: position, by: JSONScanner.attentionBytes).position
            guard position < bytes.count else { return nil }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
            if byte >= 0x80 { ascii = false }
            position += 1
        }
        let range = start ..< position
        position += 1
        guard ascii || UTF8Validation.isValid(slice(range)) else { return nil }
        return (range, ascii)
    }

    /// A non-negative integer in `range`, as JSON writes it: no sign, no leading zero, no
    /// fraction or exponent. Anything else (and anything out of range) is the general walk's.
    mutating func integer(in range: ClosedRange<Int64>) -> Int64? {
        skipWhitespace()
        let start = position
        var value: Int64 = 0
        // Eighteen digits cannot overflow; a longer number is left to the general walk.
        while position < bytes.count, position - start < 18, bytes[position] >= 0x30, bytes[position] <= 0x39 {
            value = value * 10 + Int64(bytes[position] - 0x30)
            position += 1
        }
        let digits = position - start
        guard digits > 0, !(digits > 1 && bytes[start] == UInt8(ascii: "0")), position < bytes.count else { return nil }
        switch bytes[position] {
        case 0x30 ... 0x39, UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return nil
        default: return range.contains(value) ? value : nil
        }
    }

    func slice(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[range])
    }

    func text(_ range: Range<Int>) -> String {
        String(decoding: slice(range), as: UTF8.self)
    }
}
