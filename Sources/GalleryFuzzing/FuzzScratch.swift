import Foundation
import GalleryFormat
import GallerySystem
import Synchronization
import SystemPackage

/// A private folder for the targets that read files: each input is written to a file there,
/// since the readers under test take paths as the commands do.
final class FuzzScratch: @unchecked Sendable {
    static let shared = FuzzScratch()

    let folder: FilePath

    private init() {
        let base = UserFolders.temporary()
        do throws(FileSystemError) {
            folder = try GalleryFileSystem.makeTemporaryFolder(base.appending("imagegallery-fuzz-XXXXXX"))
        } catch {
            fatalError("imagegallery fuzz: cannot make a scratch folder under \(base): \(error.reason)")
        }
        // The folder goes when the fuzzer exits normally; a crash leaves it for inspection.
        atexit { try? GalleryFileSystem.removeTree(FuzzScratch.shared.folder) }
    }

    private let counter = Mutex(0)

    /// Runs `body` on the input written to a file of its own, removed afterwards (the tests
    /// run targets side by side; the fuzzer runs one at a time).
    func withFile<T>(holding bytes: UnsafeRawBufferPointer, _ body: (GalleryFile) throws -> T) throws -> T {
        let path = folder.appending("input-\(counter.withLock { $0 += 1; return $0 })")
        defer { GalleryFileSystem.remove(path) }
        let output = try GalleryFile.openForOverwriting(path)
        if !bytes.isEmpty { try output.write(bytes, at: 0) }
        return try body(GalleryFile.openForReading(path))
    }

    /// Runs `body` with an empty folder for the archive importer's spool files, removed afterwards.
    func withSpool<T>(_ body: (String) throws -> T) throws -> T {
        let spool = folder.appending("spool-\(counter.withLock { $0 += 1; return $0 })")
        try GalleryFileSystem.makeFolder(spool)
        defer { try? GalleryFileSystem.removeTree(spool) }
        return try body(spool.string)
    }
}
