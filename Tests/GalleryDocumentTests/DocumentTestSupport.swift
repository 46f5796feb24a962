import Foundation
@testable import GalleryDocument
import GalleryFormat
import GalleryTestSupport
import Synchronization
import SystemPackage
import Testing
#if canImport(Glibc)
import Glibc
#endif

// Helpers shared by the GalleryDocument tests: small real images, options with a private
// version store, the file as it is on disk, and "another revision of the same document".

/// Small real PNG images (8-bit RGB, zlib-compressed, every pixel coloured from the seed), so
/// different seeds give different bytes and every one decodes.
enum TestImage {
    static func png(seed: Int, width: UInt32 = 8, height: UInt32 = 6) -> [UInt8] {
        PNGBytes.image(seed: seed, width: width, height: height)
    }

    /// Writes `png(seed:)` to `path` and returns the path.
    @discardableResult
    static func write(seed: Int, to path: String, width: UInt32 = 8, height: UInt32 = 6) throws -> String {
        try FileBytes.write(png(seed: seed, width: width, height: height), to: path)
        return path
    }
}

extension TemporaryDirectory {
    /// The version store of this test: never the user's.
    var versionStore: VersionStore { VersionStore(root: FilePath(file("versions"))) }

    /// Options for a test document: a private version store and no autosave (the autosave tests
    /// turn it on), so that nothing saves behind a test's back.
    func documentOptions(autosaves: Bool = false) -> DocumentOptions {
        var options = DocumentOptions()
        options.versionStore = versionStore
        options.autosaves = autosaves
        return options
    }
}

enum DiskGallery {
    /// The gallery in the file at `path`, as GalleryReader reads it.
    static func read(_ path: String) throws -> Gallery { try GalleryReader(path: path).gallery }

    /// Every image's bytes, read back (checked against size, CRC-32 and SHA-256), by image id.
    static func blobs(_ path: String) throws -> [UUID: [UInt8]] {
        let reader = try GalleryReader(path: path)
        var result: [UUID: [UInt8]] = [:]
        for image in reader.gallery.images {
            var bytes: [UInt8] = []
            try reader.readBlob(image) { bytes.append(contentsOf: $0) }
            result[image.id] = bytes
        }
        return result
    }

    /// The library's validator and the built command-line validator both accept the file.
    static func expectValid(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let report = GalleryValidator.validate(path: path)
        #expect(report.isValid, "\(report.diagnostics) \(report.readFailure ?? "")", sourceLocation: sourceLocation)
        let result = try Subprocess.imagegallery(["validate", path])
        #expect(result.status == 0, "imagegallery validate: \(result.stdout) \(result.stderr)", sourceLocation: sourceLocation)
    }
}

enum Disk {
    /// stat(2) of `path`, following links.
    static func status(_ path: String) -> stat? {
        var info = stat()
        return stat(path, &info) == 0 ? info : nil
    }

    /// lstat(2) of `path`: a link itself.
    static func linkStatus(_ path: String) -> stat? {
        var info = stat()
        return lstat(path, &info) == 0 ? info : nil
    }

    static func exists(_ path: String) -> Bool { linkStatus(path) != nil }

    /// The path with links resolved and slashes normalised, as the document names its file
    /// (the temporary folder's path has a doubled slash).
    static func resolved(_ path: String) -> String {
        guard let result = realpath(path, nil) else { return path }
        defer { free(result) }
        return String(cString: result)
    }

    /// Runs a program (cp, mv, touch…) as a real subprocess; records an issue if it fails.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws
        -> ProcessResult {
        let result = try Subprocess.run(executable, arguments)
        #expect(result.status == 0, "\(executable) \(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        return result
    }

    /// Names in a folder, hidden ones included, sorted.
    static func names(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }
}

/// Waits until `condition` holds, checking every 20 ms, for at most `timeout`. True if it held.
/// The default is long because CI runs these beside the desktop and browser tests on two cores,
/// where a task can wait minutes for a thread of the pool (see the relinquishing tests'
/// `patience`); a condition that holds ends the wait at once, so a passing test costs no more.
func poll(timeout: Duration = .seconds(300), _ condition: () async throws -> Bool) async rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while clock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    // The tests run side by side on a few shared threads: a poll that was itself held up past
    // its deadline gives the awaited task one more moment before it concludes.
    try? await Task.sleep(for: .milliseconds(500))
    return try await condition()
}

/// Another revision of the document at `path`: a copy in `folder`, opened as a document (it
/// keeps the document id), changed by `change`, saved and closed. Returns the copy's path.
func otherRevision(of path: String, in directory: TemporaryDirectory, name: String = "theirs.imagegallery",
                   change: (GalleryDocument) async throws -> Void) async throws -> String {
    let folder = directory.file("elsewhere")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let copy = folder + "/" + name
    try FileManager.default.copyItem(atPath: path, toPath: copy)
    let other = GalleryDocument(path: copy, options: directory.documentOptions())
    try await other.open()
    try await change(other)
    _ = try await other.save()
    _ = try await other.close()
    return copy
}

/// A one-shot switch a `@Sendable` closure can flip (the beforeSwap hook runs on every save).
final class OneShot: Sendable {
    private let fired = Mutex(false)
    private let results = Mutex<[Int32]>([])

    /// True the first time only.
    func fire() -> Bool { fired.withLock { was in defer { was = true }; return !was } }

    func note(_ status: Int32) { results.withLock { $0.append(status) } }
    var statuses: [Int32] { results.withLock { $0 } }
}

extension DocumentEvent {
    var state: DocumentState? { if case .stateChanged(let state) = self { state } else { nil } }
    var content: Gallery? { if case .contentChanged(let gallery) = self { gallery } else { nil } }
    var savedRevision: UUID? { if case .saved(let revision) = self { revision } else { nil } }
    var conflictVersion: DocumentVersion? { if case .conflict(let version) = self { version } else { nil } }
}
