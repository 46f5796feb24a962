import FoundationEssentials
import GalleryFormat
import GallerySystem

/// Output to the user: results on stdout, messages and progress on stderr.
enum Terminal {
    static let errorIsTerminal = CurrentProcess.standardErrorIsTerminal

    static func error(_ message: String) { writeError("imagegallery: \(neutralised(message, keepingLines: true))\n") }

    static func warning(_ message: String) { writeError("imagegallery: warning: \(neutralised(message, keepingLines: true))\n") }

    /// What a command did by default that the user should know of, on standard error so that
    /// standard output stays the result.
    static func note(_ message: String) { writeError("imagegallery: \(neutralised(message, keepingLines: true))\n") }

    /// Text that came from a file, made safe to show on a terminal (format spec, section 12):
    /// control characters (C0, DEL, C1) and the bidirectional overrides and isolates become
    /// visible escapes such as `\u{1B}`, so a crafted title or entry name cannot move the
    /// cursor, retitle the window, reorder what is shown or hide what follows. Messages of our
    /// own keep their line breaks and tabs with `keepingLines`. JSON output escapes by itself.
    static func neutralised(_ text: String, keepingLines: Bool = false) -> String {
        func unsafe(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0x0A, 0x09: !keepingLines
            case 0x00 ... 0x1F, 0x7F ... 0x9F, 0x202A ... 0x202E, 0x2066 ... 0x2069: true
            default: false
            }
        }
        guard text.unicodeScalars.contains(where: unsafe) else { return text }
        var shown = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if unsafe(scalar) {
                shown.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                shown.append(scalar)
            }
        }
        return String(shown)
    }

    static func writeError(_ text: String) {
        StandardStream.error.write(text)
    }

    /// Prints JSON for scripts: one compact document with sorted keys, on one line.
    static func printJSON<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        StandardStream.output.write([UInt8](data) + [UInt8(ascii: "\n")])
    }

    /// Prints a JSON array of `count` rows that `row` appends as compact JSON, one at a time: a
    /// listing of 100,000 images is never one document in memory.
    static func printJSONRows(_ count: Int, _ row: (Int, inout [UInt8]) -> Void) {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        bytes.reserveCapacity(1 << 17)
        for position in 0 ..< count {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            row(position, &bytes)
            if bytes.count >= 1 << 16 {
                bytes.withUnsafeBytes { StandardStream.output.write($0) }
                bytes.removeAll(keepingCapacity: true)
            }
        }
        bytes += Array("]\n".utf8)
        bytes.withUnsafeBytes { StandardStream.output.write($0) }
    }

    /// Prints a JSON array exactly as `printJSON` would, one element at a time: a listing of
    /// 100,000 images is never one document in memory (JSONEncoder's tree of it took 226 MB).
    static func printJSONArray<T: Encodable>(_ values: some Sequence<T>) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var buffer = Data("[".utf8)
        var first = true
        for value in values {
            if !first { buffer.append(UInt8(ascii: ",")) }
            first = false
            buffer.append(try encoder.encode(value))
            if buffer.count >= 1 << 16 {
                buffer.withUnsafeBytes { StandardStream.output.write($0) }
                buffer.removeAll(keepingCapacity: true)
            }
        }
        buffer.append(contentsOf: "]\n".utf8)
        buffer.withUnsafeBytes { StandardStream.output.write($0) }
    }
}
