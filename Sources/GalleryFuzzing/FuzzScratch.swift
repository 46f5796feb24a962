import Foundation
import GalleryFormat
import Synchronization

/// A private folder for the targets that read files: each input is written to a file there,
/// since the readers under test take paths as the commands do.
final class FuzzScratch: @unchecked Sendable {
    static let shared = FuzzScratch()

    let folder: String

    private init() {
        let base = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        var template = Array("\(base)/imagegallery-fuzz-XXXXXX".utf8CString)
        folder = template.withUnsafeMutableBufferPointer { buffer in
            guard let made = mkdtemp(buffer.baseAddress!) else {
                fatalError("imagegallery fuzz: cannot make a scratch folder under \(base)")
            }
            return String(cString: made)
        }
        // The folder goes when the fuzzer exits normally; a crash leaves it for inspection.
        atexit { try? FileManager.default.removeItem(atPath: FuzzScratch.shared.folder) }
    }

    private let counter = Mutex(0)

    /// Runs `body` on the input written to a file of its own, removed afterwards (the tests
    /// run targets side by side; the fuzzer runs one at a time).
    func withFile<T>(holding bytes: UnsafeRawBufferPointer, _ body: (GalleryFile) throws -> T) throws -> T {
        let path = folder + "/input-\(counter.withLock { $0 += 1; return $0 })"
        defer { GalleryFileSystem.remove(path) }
        let output = try GalleryFile.openForOverwriting(path)
        if !bytes.isEmpty { try output.write(bytes, at: 0) }
        return try body(GalleryFile.openForReading(path))
    }

    /// Runs `body` with an empty folder for the archive importer's spool files, removed afterwards.
    func withSpool<T>(_ body: (String) throws -> T) throws -> T {
        let spool = folder + "/spool-\(counter.withLock { $0 += 1; return $0 })"
        try FileManager.default.createDirectory(atPath: spool, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: spool) }
        return try body(spool)
    }
}
