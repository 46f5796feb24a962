import Dispatch
import FoundationEssentials
import GalleryImageHeaders
public import GallerySystem
import Synchronization
import SystemPackage

/// Checks a gallery file against the v1 spec and reports everything it finds.
///
/// Unlike `GalleryReader`, which stops at the first problem, the validator carries on after
/// every `error`: a bad entry does not stop the check of the others, and schema problems in
/// the manifest are all reported. It stops checking a file at its first `fatal` finding
/// (format section 11), which is then the file's last: a file without a manifest, or with one
/// that does not parse, has nothing its blobs and thumbnail could be checked against. It never
/// writes, never follows a name out of the archive, and reads every byte within the spec's
/// limits.
public enum GalleryValidator {
    /// Validates the file at `path`. Never throws: a file that cannot be read at all gives a
    /// report whose ``ValidationReport/readFailure`` says why. Reads the entries on every core
    /// unless ``ValidationOptions/readsEntriesInParallel`` is off; blocks until done.
    public static func validate(path: String, options: ValidationOptions = ValidationOptions()) -> ValidationReport {
        var run = ValidationRun(path: path, options: options)
        run.validate { try ZipArchive(collectingProblemsOf: GalleryFile.openForReading(FilePath(path)), limits: options.limits) }
        return ValidationReport(path: path, diagnostics: run.found, readFailure: run.readFailure)
    }

    /// Validates an open file (standard input spooled to a nameless file, say); findings name
    /// it by `file.path`.
    public static func validate(file: GalleryFile, options: ValidationOptions = ValidationOptions()) -> ValidationReport {
        var run = ValidationRun(path: file.path, options: options)
        run.validate { try ZipArchive(collectingProblemsOf: file, limits: options.limits) }
        return ValidationReport(path: file.path, diagnostics: run.found, readFailure: run.readFailure)
    }
}

/// One file's validation, holding what has been found so far.
struct ValidationRun {
    let path: String
    let options: ValidationOptions
    private(set) var found: [GalleryError] = []
    var readFailure: String?
    /// Set at the first fatal finding: nothing after it is checked or recorded.
    private(set) var stopped = false

    /// What reading an entry once tells: its digest, what its first bytes say it is, and its
    /// image header. Small: the bytes themselves are never kept.
    struct EntryContent {
        var sha256: SHA256Digest
        var sniffed: MediaType?
        var header: Result<ImageHeader, ImageHeaderError>?
        /// Why a blob's colour description cannot be used (IG-BLB-020, IG-BLB-021).
        var colour: ColourProblem?
    }

    init(path: String, options: ValidationOptions) {
        self.path = path
        self.options = options
    }

    mutating func record(_ error: GalleryError) { append(error.inFile(path)) }

    /// Records a finding, unless the check already stopped; a fatal one stops it.
    private mutating func append(_ error: GalleryError) {
        guard !stopped else { return }
        found.append(error)
        if error.severity == .fatal { stopped = true }
    }

    mutating func record(_ error: any Error, fallback: DiagnosticCode, entry: String? = nil) {
        if let error = error as? GalleryError {
            record(error)
        } else {
            record(GalleryError(fallback, "\(error)", location: Location(file: path, entry: entry)))
        }
    }

    mutating func validate(opening open: () throws -> ZipArchive) {
        let archive: ZipArchive
        do {
            archive = try open()
        } catch let error as FileSystemError {
            // Not a finding about the content: the caller reports an I/O problem.
            readFailure = error.description
            return
        } catch {
            record(error, fallback: .notZip)
            return
        }
        // A fatal finding ends the check (an entry's data past the end of the file, say): after
        // each step, nothing more is looked at once one was made.
        for problem in archive.entryProblems { append(problem) }
        guard !stopped else { return }
        let layout = archive.layoutDiagnostics()
        for finding in layout { append(finding) }
        guard !stopped else { return }
        // An entry the central directory already condemned, or whose local header is known to be
        // wrong, is not read again.
        let unreadable = Set(layout.filter { $0.severity >= .error }.compactMap(\.location.entry))
            .union(archive.entries.filter(\.hasProblem).map(\.name))
        // The central directory tells whether there is a manifest at all. Without one the file is
        // no gallery (fatal), so that is looked at before the `mimetype` entry: an empty ZIP
        // has one finding, not a missing `mimetype` as well.
        if !archive.entries.contains(where: { $0.name == GalleryPackage.manifestEntry }) {
            record(GalleryError(.manifestMissing, "the archive has no manifest.json", location: Location(file: path)))
            return
        }
        if !unreadable.contains(GalleryPackage.mimetypeEntry) {
            do { try GalleryReader.checkMimetype(archive) } catch { record(error, fallback: .mimetypeContent, entry: "mimetype") }
        }
        guard !stopped else { return }

        // The entries are read on every core while this thread decodes the manifest.
        let reading = EntryReading(archive, skipping: unreadable, inParallel: options.readsEntriesInParallel)
        let gallery = unreadable.contains(GalleryPackage.manifestEntry) ? nil : checkManifest(archive)
        guard !stopped else {
            // No manifest, or one that cannot be read: the entries are not checked against it,
            // nor on their own. The readers still running are stopped and waited for.
            reading.abandon()
            return
        }
        let contents = collect(reading)
        guard !stopped else { return }
        if let gallery { checkBlobs(gallery, archive: archive, contents: contents) }
        checkThumbnail(archive, contents: contents)
        if let checker = options.pixelChecker {
            checkPixels(gallery, archive: archive, contents: contents, with: checker)
        }
    }

    /// Reads and decodes `manifest.json`, reporting every problem; the gallery if it is usable.
    mutating func checkManifest(_ archive: ZipArchive) -> Gallery? {
        guard let entry = archive.entry(named: GalleryPackage.manifestEntry) else {
            record(GalleryError(.manifestMissing, "the archive has no manifest.json", location: Location(file: path)))
            return nil
        }
        // Free text is checked but not kept: the validator needs none of it.
        let decoded: ManifestDecoding
        do {
            decoded = try Manifest.read(entry, of: archive, limits: options.limits, keepsText: false)
        } catch {
            record(error, fallback: .truncated, entry: entry.name)
            return nil
        }
        for diagnostic in decoded.diagnostics { record(diagnostic) }
        return decoded.gallery
    }

    /// Reading every entry but `mimetype` and `manifest.json` (read apart) once: CRC and sizes
    /// are checked on the way, and blobs are hashed. An entry's failure does not stop the others.
    /// In parallel, the reading starts at `init` on all cores; otherwise it is done by `finish`,
    /// so that a file whose check stops first (at a fatal manifest finding) is not read at all.
    final class EntryReading: @unchecked Sendable {
        let wanted: [ZipEntry]
        private let archive: ZipArchive
        private let results: Mutex<[Result<EntryContent, any Error>?]>
        private let done = DispatchGroup()
        private let inParallel: Bool
        private let abandoned = Atomic<Bool>(false)

        init(_ archive: ZipArchive, skipping unreadable: Set<String>, inParallel: Bool) {
            let wanted = archive.entries.filter { entry in
                !entry.isDirectory && !unreadable.contains(entry.name)
                    && entry.name != GalleryPackage.mimetypeEntry && entry.name != GalleryPackage.manifestEntry
            }
            self.wanted = wanted
            self.archive = archive
            self.inParallel = inParallel
            results = Mutex(Array(repeating: nil, count: wanted.count))
            guard inParallel else { return }
            done.enter()
            DispatchQueue.global().async { [self] in
                let next = Atomic<Int>(0)
                let workers = min(ProcessInfo.processInfo.activeProcessorCount, max(wanted.count, 1))
                DispatchQueue.concurrentPerform(iterations: workers) { _ in
                    while !self.abandoned.load(ordering: .relaxed) {
                        let index = next.add(1, ordering: .relaxed).oldValue
                        guard index < wanted.count else { return }
                        let result = Result { try ValidationRun.read(wanted[index], of: archive) }
                        self.results.withLock { $0[index] = result }
                    }
                }
                self.done.leave()
            }
        }

        /// Waits for every entry; results in directory order.
        func finish() -> [Result<EntryContent, any Error>] {
            if !inParallel {
                for (index, entry) in wanted.enumerated() {
                    let result = Result { try ValidationRun.read(entry, of: archive) }
                    results.withLock { $0[index] = result }
                }
            }
            done.wait()
            return results.withLock { $0.map { $0! } }
        }

        /// Stops the reading: entries not yet begun are not read. Returns once no reader is
        /// left running.
        func abandon() {
            abandoned.store(true, ordering: .relaxed)
            done.wait()
        }
    }

    /// Records the failures of `reading`, in directory order, and returns what was read.
    mutating func collect(_ reading: EntryReading) -> [String: EntryContent] {
        var contents: [String: EntryContent] = [:]
        for (entry, result) in zip(reading.wanted, reading.finish()) {
            switch result {
            case .success(let content): contents[entry.name] = content
            case .failure(let error): record(error, fallback: .truncated, entry: entry.name)
            }
        }
        return contents
    }

    /// One entry, read whole: digest, first bytes' verdict and image header.
    static func read(_ entry: ZipEntry, of archive: ZipArchive) throws -> EntryContent {
        var hasher = SHA256Hasher()
        var prefix: [UInt8] = []
        var looked: Look?
        // A larger stored image's header is read from the file, segment by segment; only a
        // deflated one needs its first bytes kept.
        let keep = entry.method == .stored ? ImageKind.identifyingBytes : Self.prefixBytes
        try archive.read(entry) { chunk in
            hasher.update(chunk)
            // A stored image that comes in one chunk (a photo) is looked at in it, in memory:
            // walking its segments in the file took some 35 small reads a photo, a sixth of
            // `validate`'s processor time. The look counts only if the read then ends well.
            if entry.method == .stored, prefix.isEmpty, UInt64(chunk.count) == entry.uncompressedSize {
                looked = look(at: entry, in: archive, prefix: Array(chunk.prefix(keep)), whole: chunk.bytes(at:count:))
            } else if prefix.count < keep {
                prefix += chunk.prefix(keep - prefix.count)
            }
        }
        let found = looked ?? look(at: entry, in: archive, prefix: prefix, whole: nil)
        return EntryContent(sha256: hasher.finalize(), sniffed: found.sniffed, header: found.header, colour: found.colour)
    }

    /// What an entry's bytes say of it: its type, its header, its colour description's problem.
    typealias Look = (sniffed: MediaType?, header: Result<ImageHeader, ImageHeaderError>?, colour: ColourProblem?)

    /// `whole` reads the entry's bytes held in memory; without it they are read from `prefix`
    /// and, for a stored entry, from the file.
    private static func look(at entry: ZipEntry, in archive: ZipArchive, prefix: [UInt8],
                             whole: ((UInt64, Int) throws -> [UInt8])?) -> Look {
        let sniffed = MediaType.sniff(prefix)
        let header = sniffed.map { _ in
            Result { try Self.header(of: entry, in: archive, prefix: prefix, whole: whole) }.mapError {
                $0 as? ImageHeaderError ?? ImageHeaderError("\($0)")
            }
        }
        var colour: ColourProblem?
        if case .success(let found)? = header, entry.name != GalleryPackage.thumbnailEntry {
            colour = Self.colourProblem(of: entry, as: found.mediaType, in: archive, whole: whole)
        }
        return (sniffed, header, colour)
    }

    /// Enough of an image to find its header behind the usual metadata segments.
    static let prefixBytes = 256 << 10
}
