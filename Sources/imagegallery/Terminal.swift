import Foundation
import GallerySystem
import Synchronization

/// Output to the user: results on stdout, messages and progress on stderr.
enum Terminal {
    static let errorIsTerminal = CurrentProcess.standardErrorIsTerminal

    static func error(_ message: String) { writeError("imagegallery: \(neutralised(message, keepingLines: true))\n") }

    static func warning(_ message: String) { writeError("imagegallery: warning: \(neutralised(message, keepingLines: true))\n") }

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
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Prints JSON for scripts: one compact document with sorted keys, on one line.
    static func printJSON<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        FileHandle.standardOutput.write(data)
        FileHandle.standardOutput.write(Data("\n".utf8))
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
                FileHandle.standardOutput.write(buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        buffer.append(contentsOf: "]\n".utf8)
        FileHandle.standardOutput.write(buffer)
    }
}

/// A one-line progress bar on stderr, drawn only when stderr is a terminal and at most
/// ten times a second, so it costs nothing in scripts and pipelines. Safe to update from
/// several threads.
final class ProgressBar: Sendable {
    private let label: String
    private let total: UInt64
    private let enabled: Bool
    private let state = Mutex<(lastDraw: UInt64, drawn: Bool, line: String)>((0, false, ""))

    init(_ label: String, total: UInt64, enabled: Bool = Terminal.errorIsTerminal) {
        self.label = label
        self.total = max(total, 1)
        self.enabled = enabled
    }

    var totalCount: UInt64 { total }

    /// Prints a line of its own on stderr, above the bar (which is drawn again); without a
    /// terminal, just the line.
    func log(_ line: String) {
        state.withLock { state in
            if enabled, state.drawn {
                Terminal.writeError("\r\u{1B}[2K\(line)\n\(state.line)")
            } else {
                Terminal.writeError(line + "\n")
            }
        }
    }

    func update(_ done: UInt64, detail: String = "") {
        guard enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        state.withLock { state in
            guard done >= total || now - state.lastDraw > 100_000_000 else { return }
            state.lastDraw = now
            state.drawn = true
            let fraction = Double(min(done, total)) / Double(total)
            let width = 30
            let filled = Int(fraction * Double(width))
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            state.line = "\(label) [\(bar)] \(Int(fraction * 100))% \(detail)"
            Terminal.writeError("\r\u{1B}[2K" + state.line)
        }
    }

    func finish() {
        guard enabled, state.withLock({ $0.drawn }) else { return }
        Terminal.writeError("\r\u{1B}[2K")
    }
}

/// A progress bar made on the first report, when the total is known: a reader or writer
/// learns it only once it has started (read the manifest, listed the archive). Safe to update
/// from several threads, as `ProgressBar` is.
final class LazyProgress: Sendable {
    private let label: String
    private let bar = Mutex<ProgressBar?>(nil)

    init(_ label: String) { self.label = label }

    func update(_ done: UInt64, of total: UInt64, detail: String) {
        let progress = bar.withLock { bar in
            if bar == nil { bar = ProgressBar(label, total: total) }
            return bar!
        }
        progress.update(done, detail: detail)
    }

    /// For counted things (images, pages): "12/40".
    func update(count done: Int, of total: Int) {
        update(UInt64(done), of: UInt64(total), detail: "\(done)/\(total)")
    }

    func finish() { bar.withLock { $0?.finish() } }
}

enum ByteCount {
    /// "1.4 MB (1412345 bytes)"-style, decimal units as file managers show them.
    static func describe(_ bytes: UInt64) -> String {
        let units = ["bytes", "kB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000, unit < units.count - 1 { value /= 1000; unit += 1 }
        return unit == 0 ? "\(bytes) bytes" : String(format: "%.1f %@ (%llu bytes)", value, units[unit], bytes)
    }
}
