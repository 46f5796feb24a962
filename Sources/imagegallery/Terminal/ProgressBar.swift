import Dispatch
import FoundationEssentials
import Synchronization

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

    /// `detail` is worked out only when the bar is drawn: most updates are not drawn (no
    /// terminal, or within a tenth of a second of the last), and a writer updates per blob.
    func update(_ done: UInt64, detail: @autoclosure () -> String = "") {
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
            state.line = "\(label) [\(bar)] \(Int(fraction * 100))% \(detail())"
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

    func update(_ done: UInt64, of total: UInt64, detail: @autoclosure () -> String) {
        let progress = bar.withLock { bar in
            if bar == nil { bar = ProgressBar(label, total: total) }
            return bar!
        }
        progress.update(done, detail: detail())
    }

    /// For counted things (images, pages): "12/40".
    func update(count done: Int, of total: Int) {
        update(UInt64(done), of: UInt64(total), detail: "\(done)/\(total)")
    }

    func finish() { bar.withLock { $0?.finish() } }
}
