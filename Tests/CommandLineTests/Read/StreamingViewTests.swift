import Foundation
import GalleryFormat
import GallerySystem
import GalleryTestSupport
import SystemPackage
import Testing

/// A streaming reader (libarchive on a pipe, Java's `ZipInputStream`, upload scanners) walks the
/// local headers from the front and never reads the central directory, so bytes that no central
/// record points at, or a stored entry whose end it must guess, can show it entries that a reader
/// of the central directory never sees (format 9.2 and 12, IG-PKG-031, IG-PKG-032, IG-PKG-033).
/// The entries and bytes every streaming reader sees must equal those seen through the central
/// directory, that is through this project's reader: `ZipArchive` here, in the test process,
/// lists the central directory's entries and reads each one (name bytes, SHA-256 and size of the
/// content). `scripts/check-streaming-view.py` computes two streaming views of each file: a strict
/// walk of the local headers like `ZipInputStream`, and bsdtar reading the file from a pipe (and
/// Python's zipfile view of the central directory, shown in failure messages as information only:
/// zipfile reads some files otherwise than our reader, which is the reference). Each streaming
/// view is compared with ours as a multiset of entries: the central directory's order need not
/// be the file's. Over every fixture (valid, tolerant, invalid with its sub-folders) and the
/// committed hostile corpus:
///
/// - a file `validate` accepts looks the same to our reader and to both streaming readers; put
///   the other way round, a file whose views differ is refused;
/// - the hidden-header fixtures do show the difference (so the check is not vacuous), and
///   `validate`, `info`, `list`, `extract` and `thumbnail` all refuse them, naming the id;
/// - so do the stored entries with a data descriptor that a streaming reader ends elsewhere than
///   the central directory does, which `validate` refuses as IG-PKG-033.
///
/// One `validate` run over all files, one run of the checker and our reader's views, side by
/// side: about 20 s on two cores (the checker runs bsdtar twice per file).
@Suite("Streaming view: every reader sees the same gallery")
struct StreamingViewTests {
    /// The folders under Fixtures whose files are inputs; each must exist and hold files.
    static let folders = ["valid", "tolerant", "invalid", "hostile"]

    /// Caps on what our reader reads of one file, the same as the checker's
    /// (--max-entry-mb 65 --max-total-mb 130): the inputs' largest entries fit.
    static let entryCap: UInt64 = 65 << 20
    static let totalCap: UInt64 = 130 << 20

    struct Verdict: Sendable {
        var valid: Bool
        var errorIDs: [String]
    }

    /// One entry as a reader sees it.
    struct SeenEntry: Sendable, Hashable, CustomStringConvertible {
        var name: [UInt8]
        /// "file" or "directory"; a streaming view may also give "symlink" or "other".
        var kind: String
        var sha256: String? = nil
        var size: UInt64? = nil
        var target: String? = nil
        /// Why the content could not be read.
        var error: String? = nil

        /// What must be equal: a directory is compared by name only.
        var key: SeenEntry {
            kind == "directory" ? SeenEntry(name: name, kind: kind) : SeenEntry(name: name, kind: kind, sha256: sha256, size: size,
                                                                                 target: target)
        }

        var description: String {
            var text = "\(kind) \"\(String(decoding: name, as: UTF8.self))\""
            if let error { return text + " (unreadable: \(error))" }
            if let size, let sha256 { text += " (\(size) bytes, sha256 \(sha256.prefix(12)))" }
            if let target { text += " -> \(target)" }
            return text
        }
    }

    /// The entries one reader sees in a file, and what kept it from seeing all of them.
    struct ReaderView: Sendable {
        var entries: [SeenEntry]
        var problems: [String]
        var complete: Bool { problems.isEmpty }
    }

    /// Our reader's view: the central directory's entries, each read through `ZipArchive`.
    struct CentralView: Sendable {
        /// Why `ZipArchive(path:)` refuses to open the file; the entries are then those the
        /// central directory lists all the same (opened collecting its problems), when it can be read.
        var refused: String?
        var view: ReaderView
    }

    /// What the checker saw: the two streaming views, and zipfile's differences as information.
    struct StreamingViews: Sendable {
        var local: ReaderView
        var libarchive: ReaderView
        var zipfileNotes: [String]
    }

    struct Corpus: Sendable {
        var files: [String]
        var verdicts: [String: Verdict]
        var central: [String: CentralView]
        var streaming: [String: StreamingViews]

        /// How the streaming views differ from our reader's, or why they cannot be compared; empty
        /// when both streaming readers see exactly the entries and bytes our reader sees.
        func mismatches(_ path: String) -> [String] {
            let ours = central[path]!
            let theirs = streaming[path]!
            var found: [String] = []
            if let refused = ours.refused { found.append("our reader refuses to open it: \(refused)") }
            found += ours.view.problems.map { "our reader: \($0)" }
            for (label, view) in [("local-header walk", theirs.local), ("libarchive on a pipe", theirs.libarchive)] {
                found += view.problems.map { "\(label): \($0)" }
                if let difference = StreamingViewTests.difference(ours.view, view, label) { found.append(difference) }
            }
            return found
        }

        /// Whether a streaming view sees other entries or bytes than the central directory
        /// lists (or cannot read the file), whether or not our reader opens it.
        func streamingSeesOtherEntries(_ path: String) -> Bool {
            let ours = central[path]!.view
            let theirs = streaming[path]!
            return [theirs.local, theirs.libarchive].contains { !$0.complete || StreamingViewTests.difference(ours, $0, "") != nil }
        }

        func report(_ path: String) -> String {
            (mismatches(path) + streaming[path]!.zipfileNotes.map { "(information) \($0)" }).joined(separator: "\n")
        }
    }

    /// Made once for the suite: `validate`, the checker and our reader over every input file.
    static let corpus = Task { try await examine() }

    /// nil when the two views hold the same entries, in any order (as many of each); else what differs.
    static func difference(_ ours: ReaderView, _ theirs: ReaderView, _ label: String) -> String? {
        var count: [SeenEntry: Int] = [:]
        for entry in ours.entries { count[entry.key, default: 0] += 1 }
        var onlyTheirs: [SeenEntry] = []
        for entry in theirs.entries {
            if let left = count[entry.key], left > 0 { count[entry.key] = left - 1 } else { onlyTheirs.append(entry) }
        }
        let onlyOurs = ours.entries.filter { entry in
            guard let left = count[entry.key], left > 0 else { return false }
            count[entry.key] = left - 1
            return true
        }
        guard !onlyOurs.isEmpty || !onlyTheirs.isEmpty else { return nil }
        func list(_ entries: [SeenEntry]) -> String {
            entries.isEmpty ? "nothing" : entries.prefix(4).map(\.description).joined(separator: ", ") + (entries.count > 4 ? ", …" : "")
        }
        return "our reader (\(ours.entries.count) entries) and \(label) (\(theirs.entries.count)) differ: only ours has "
            + "\(list(onlyOurs)); only \(label) has \(list(onlyTheirs))"
    }

    // MARK: - Inputs

    /// Every file under Fixtures/FOLDER, sub-folders included, but for the documentation and
    /// metadata beside the inputs: README.md files, the manifest sidecars of valid/
    /// (NAME.manifest.json), the hostile corpus's expected.json and the results.json that
    /// `scripts/check-hostile-corpus.py` leaves beside it when run without --results.
    static func inputs(in folder: String) throws -> [String] {
        let root = TestPaths.fixture(folder)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw MissingTestInput(description: "the fixture folder \(root) is missing")
        }
        let relatives = try FileManager.default.subpathsOfDirectory(atPath: root)
        var found: [String] = []
        for relative in relatives {
            let path = root + "/" + relative
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            guard attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            let name = (relative as NSString).lastPathComponent
            if name == "README.md" || (folder == "hostile" && ["expected.json", "results.json"].contains(relative))
                || (folder == "valid" && name.hasSuffix(".manifest.json")) {
                continue
            }
            found.append(path)
        }
        guard !found.isEmpty else { throw MissingTestInput(description: "the fixture folder \(root) holds no input file") }
        return found.sorted()
    }

    /// The hostile corpus's expectations, file name -> record.
    static func hostileExpectations() throws -> [String: [String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("hostile/expected.json")))
        guard let table = try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]], !table.isEmpty else {
            throw MissingTestInput(description: "Fixtures/hostile/expected.json is not a table of expectations")
        }
        return table
    }

    static func examine() async throws -> Corpus {
        var files: [String] = []
        for folder in folders { files += try inputs(in: folder) }
        // The hostile folder holds exactly the files its expected.json describes.
        let hostileFolder = TestPaths.fixture("hostile") + "/"
        let hostile = Set(files.filter { $0.hasPrefix(hostileFolder) }.map { String($0.dropFirst(hostileFolder.count)) })
        let described = Set(try hostileExpectations().keys)
        guard hostile == described else {
            throw Failure(description: "Fixtures/hostile and its expected.json disagree: only in the folder "
                          + "\(hostile.subtracting(described).sorted()), only in expected.json \(described.subtracting(hostile).sorted())")
        }
        let scratch = try TemporaryDirectory()
        let inputs = files
        async let verdicts = Blocking.run { try validate(inputs, report: scratch.file("validate.json")) }
        async let streaming = Blocking.run { try streamingViews(inputs, report: scratch.file("views.json")) }
        async let central = Blocking.run { Dictionary(uniqueKeysWithValues: inputs.map { ($0, centralView(of: $0)) }) }
        return try await Corpus(files: files, verdicts: verdicts, central: central, streaming: streaming)
    }

    /// Our reader's view of a file: `ZipArchive(path:)` and every entry it lists, read (CRC-32,
    /// sizes and the local header checked) and hashed. When it refuses the file, the entries the
    /// central directory lists even so, opened collecting the problems, with the refusal noted.
    static func centralView(of path: String) -> CentralView {
        do {
            return CentralView(refused: nil, view: read(try ZipArchive(path: path)))
        } catch {
            let refusal = "\(error)"
            do {
                let listing = try ZipArchive(collectingProblemsOf: GalleryFile.openForReading(FilePath(path)))
                return CentralView(refused: refusal, view: read(listing))
            } catch {
                return CentralView(refused: refusal, view: ReaderView(entries: [], problems: ["the central directory cannot be read: \(error)"]))
            }
        }
    }

    static func read(_ archive: ZipArchive) -> ReaderView {
        var view = ReaderView(entries: [], problems: [])
        var total: UInt64 = 0
        for entry in archive.entries {
            let name = Array(entry.name.utf8)
            if entry.isDirectory {
                view.entries.append(SeenEntry(name: name, kind: "directory"))
                continue
            }
            var problem: String?
            var hasher = SHA256Hasher()
            var size: UInt64 = 0
            if entry.uncompressedSize > entryCap || total + entry.uncompressedSize > totalCap {
                problem = "declares \(entry.uncompressedSize) bytes, over the cap of \(entryCap) for an entry or \(totalCap) in all"
            } else {
                do {
                    // The reader refuses more bytes than the entry declares.
                    try archive.read(entry) { chunk in
                        hasher.update(chunk)
                        size += UInt64(chunk.count)
                    }
                } catch {
                    problem = "\(error)"
                }
                total += size
            }
            if let problem {
                view.entries.append(SeenEntry(name: name, kind: "file", error: problem))
                view.problems.append("\(entry.name): \(problem)")
            } else {
                view.entries.append(SeenEntry(name: name, kind: "file", sha256: hasher.finalize().hex, size: size))
            }
        }
        return view
    }

    /// `imagegallery validate --format json` over all the files at once.
    static func validate(_ files: [String], report: String) throws -> [String: Verdict] {
        let result = try Subprocess.imagegallery(["validate", "--format", "json", "--jobs", "2", "--output", report] + files)
        guard result.status == 0 || result.status == 1 else {
            throw Failure(description: "validate exited \(result.status): \(result.stderr.suffix(2000))")
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: report))
        guard let entries = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["files"] as? [[String: Any]] else {
            throw Failure(description: "the validate report \(report) has no files array")
        }
        var verdicts: [String: Verdict] = [:]
        for entry in entries {
            guard let path = entry["path"] as? String, let valid = entry["valid"] as? Bool,
                  let messages = entry["messages"] as? [[String: Any]] else {
                throw Failure(description: "a file of the validate report lacks path, valid or messages: \(entry)")
            }
            if let failure = entry["readFailure"] { throw Failure(description: "validate could not read \(path): \(failure)") }
            let errors = messages.filter { ["error", "fatal"].contains($0["severity"] as? String) }.compactMap { $0["id"] as? String }
            verdicts[path] = Verdict(valid: valid, errorIDs: errors)
        }
        guard Set(verdicts.keys) == Set(files), entries.count == files.count else {
            throw Failure(description: "the validate report covers \(entries.count) files, not the \(files.count) given")
        }
        return verdicts
    }

    /// `scripts/check-streaming-view.py` over all the files at once: each file's streaming views,
    /// every entry listed (names as bytes, SHA-256 and size).
    static func streamingViews(_ files: [String], report: String) throws -> [String: StreamingViews] {
        let script = TestPaths.repository + "/scripts/check-streaming-view.py"
        let result = try Subprocess.run("/usr/bin/python3", [script, "--jobs", "3", "--max-entry-mb", "65", "--max-total-mb", "130",
                                                             "--show-entries", "1000000", "--output", report] + files)
        // 0: every file's streaming views agree; 1: some differ; 2: a file or a tool (bsdtar) is missing.
        guard result.status == 0 || result.status == 1 else {
            throw Failure(description: "check-streaming-view.py exited \(result.status): \(result.stderr.suffix(2000))")
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: report))
        guard let records = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["files"] as? [[String: Any]] else {
            throw Failure(description: "the checker's report \(report) has no files array")
        }
        var views: [String: StreamingViews] = [:]
        for record in records {
            guard let path = record["file"] as? String, let all = record["views"] as? [String: Any],
                  let notes = record["zipfileDifferences"] as? [String] else {
                throw Failure(description: "a file of the checker's report lacks file, views or zipfileDifferences: \(record)")
            }
            views[path] = StreamingViews(local: try streamingView(all["local"], of: path), libarchive: try streamingView(all["libarchive"], of: path),
                                         zipfileNotes: notes)
        }
        guard Set(views.keys) == Set(files), records.count == files.count else {
            throw Failure(description: "the checker's report covers \(records.count) files, not the \(files.count) given")
        }
        return views
    }

    /// One view of the checker's report.
    static func streamingView(_ value: Any?, of path: String) throws -> ReaderView {
        guard let view = value as? [String: Any], let listed = view["entries"] as? [[String: Any]], let count = view["count"] as? Int,
              let truncated = view["entriesTruncated"] as? Bool else {
            throw Failure(description: "the checker's report has no complete view of \(path): \(String(describing: value))")
        }
        guard !truncated, listed.count == count else {
            throw Failure(description: "the checker's report lists \(listed.count) of the \(count) entries of a view of \(path)")
        }
        var result = ReaderView(entries: [], problems: [])
        if let error = view["error"] as? String { result.problems.append(error) }
        for item in listed {
            guard let hex = item["nameHex"] as? String, let name = bytes(hex: hex), let kind = item["kind"] as? String else {
                throw Failure(description: "an entry of the checker's report for \(path) lacks nameHex or kind: \(item)")
            }
            let entry = SeenEntry(name: name, kind: kind, sha256: item["sha256"] as? String, size: (item["size"] as? Int).map(UInt64.init),
                                  target: item["target"] as? String, error: item["error"] as? String)
            if kind == "file", entry.error == nil, entry.sha256 == nil || entry.size == nil {
                throw Failure(description: "a file entry of the checker's report for \(path) has no sha256 or size: \(item)")
            }
            if let error = entry.error { result.problems.append("\(entry): \(error)") }
            result.entries.append(entry)
        }
        return result
    }

    static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index ..< index + 2], as: UTF8.self), radix: 16) else { return nil }
            out.append(byte)
        }
        return out
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    // MARK: - The hidden-header fixtures

    struct HiddenHeaderFixture: Sendable, CustomTestStringConvertible {
        var path: String
        var id: String
        /// For a stored entry with a data descriptor: whether a streaming reader sees other entries.
        var showsDifference = true
        var testDescription: String { "\((path as NSString).lastPathComponent) (\(id))" }
    }

    /// Fixtures/invalid/IG-PKG-031-* and IG-PKG-032-*, and the hostile files expected to be
    /// refused with exactly one of those ids.
    static func hiddenHeaderFixtures() throws -> [HiddenHeaderFixture] {
        let ids: Set = ["IG-PKG-031", "IG-PKG-032"]
        let invalid = try TestPaths.fixtures(in: "invalid", withExtension: "imagegallery").compactMap { path in
            let id = String((path as NSString).lastPathComponent.prefix(10))
            return ids.contains(id) ? HiddenHeaderFixture(path: path, id: id) : nil
        }
        let hostile = try hostileExpectations().compactMap { name, record -> HiddenHeaderFixture? in
            guard record["verdict"] as? String == "invalid", let expected = record["ids"] as? [String],
                  expected.count == 1, ids.contains(expected[0]) else { return nil }
            return HiddenHeaderFixture(path: TestPaths.fixture("hostile/" + name), id: expected[0])
        }.sorted { $0.path < $1.path }
        guard invalid.count >= 3, Set(invalid.map(\.id)) == ids, hostile.count >= 5 else {
            throw MissingTestInput(description: "expected the IG-PKG-031 and IG-PKG-032 fixtures in Fixtures/invalid and "
                                   + "the hidden-header family in Fixtures/hostile; found \(invalid.count) and \(hostile.count)")
        }
        return invalid + hostile
    }

    /// Stored entries with a data descriptor (IG-PKG-033): the invalid fixture, where libarchive
    /// finds the real descriptor (refused by the rule alone), and two hostile files where the
    /// streaming readers end the data elsewhere.
    static func storedDescriptorFixtures() throws -> [HiddenHeaderFixture] {
        let fixtures = [
            HiddenHeaderFixture(path: TestPaths.fixture("invalid/IG-PKG-033-stored-data-descriptor.imagegallery"), id: "IG-PKG-033",
                                showsDifference: false),
            // a forged descriptor inside the data, then a hidden manifest.json
            HiddenHeaderFixture(path: TestPaths.fixture("hostile/c-hidden-header-inside-stored-data-descriptor-entry.imagegallery"),
                                id: "IG-PKG-033"),
            // descriptors without signature: libarchive cannot find where the stored data ends
            HiddenHeaderFixture(path: TestPaths.fixture("hostile/c-stored-data-descriptor-nosig.imagegallery"), id: "IG-PKG-033"),
        ]
        for fixture in fixtures where !FileManager.default.fileExists(atPath: fixture.path) {
            throw MissingTestInput(description: "\(fixture.path) is missing (scripts/make-fixtures.py, scripts/make-hostile-corpus.py)")
        }
        return fixtures
    }

    // MARK: - Tests

    @Test func acceptedFilesLookTheSameToEveryReader() async throws {
        let corpus = try await Self.corpus.value
        let accepted = corpus.files.filter { corpus.verdicts[$0]!.valid }
        // Not vacuous: the valid and tolerant galleries are all accepted, with many more, and each
        // accepted gallery has at least mimetype, manifest.json and thumbnail.png to compare.
        let shouldPass = try Self.inputs(in: "valid") + Self.inputs(in: "tolerant")
        #expect(shouldPass.allSatisfy { corpus.verdicts[$0]!.valid }, "a valid or tolerant fixture was refused")
        #expect(accepted.count >= 150, "only \(accepted.count) files accepted")
        for path in accepted {
            #expect(corpus.central[path]!.view.entries.count >= 3, "our reader sees \(corpus.central[path]!.view.entries.count) entries in \(path)")
        }
        // The entries and bytes a strict walk of the local headers and libarchive on a pipe see
        // equal those our reader sees through the central directory, in every file validate
        // accepts; put the other way round, every file whose views differ is refused.
        for path in corpus.files where !corpus.mismatches(path).isEmpty {
            #expect(!corpus.verdicts[path]!.valid,
                    "validate accepts \(path), but the streaming readers do not see what our reader sees:\n\(corpus.report(path))")
        }
    }

    @Test func hiddenHeadersShowTheDifferenceAndAreRefused() async throws {
        let corpus = try await Self.corpus.value
        for fixture in try Self.hiddenHeaderFixtures() {
            #expect(corpus.streamingSeesOtherEntries(fixture.path),
                    "a streaming reader sees the entries the central directory lists in \(fixture.path)")
            let verdict = try #require(corpus.verdicts[fixture.path])
            #expect(!verdict.valid && verdict.errorIDs.contains(fixture.id),
                    "validate: \(fixture.path) should be refused with \(fixture.id); errors \(verdict.errorIDs)")
        }
    }

    /// A stored entry with a data descriptor: every byte belongs to a listed entry, and our reader
    /// reads each one as the central directory says, but a streaming reader must search the data
    /// for where it ends. Refused when the central directory is read (IG-PKG-033).
    @Test func storedDataDescriptorsShowTheDifferenceAndAreRefused() async throws {
        let corpus = try await Self.corpus.value
        for fixture in try Self.storedDescriptorFixtures() where fixture.showsDifference {
            let central = try #require(corpus.central[fixture.path])
            #expect(central.refused?.contains("IG-PKG-033") == true, "ZipArchive(path:) on \(fixture.path): \(central.refused ?? "opened")")
            // Read all the same, the central directory's entries are whole: the difference is the streaming readers'.
            #expect(central.view.complete, "\(fixture.path): \(central.view.problems)")
            #expect(corpus.streamingSeesOtherEntries(fixture.path),
                    "a streaming reader sees the entries the central directory lists in \(fixture.path)")
            let verdict = try #require(corpus.verdicts[fixture.path])
            #expect(!verdict.valid && verdict.errorIDs.first == "IG-PKG-033",
                    "validate: \(fixture.path) should be refused with IG-PKG-033 first; errors \(verdict.errorIDs)")
        }
        // The file made for it: libarchive ends notes.bin at a descriptor forged inside its data
        // and shows the manifest.json hidden after it, which our reader reads as notes.bin's bytes.
        let smuggled = TestPaths.fixture("hostile/c-hidden-header-inside-stored-data-descriptor-entry.imagegallery")
        let ours = try #require(corpus.central[smuggled]).view
        let libarchive = try #require(corpus.streaming[smuggled]).libarchive
        let manifest = Array("manifest.json".utf8)
        #expect(ours.entries.filter { $0.name == manifest }.count == 1)
        #expect(libarchive.entries.filter { $0.name == manifest }.count == 2, "libarchive: \(libarchive.entries)")
    }

    @Test(arguments: try hiddenHeaderFixtures() + storedDescriptorFixtures())
    func everyReaderRefusesAHiddenHeader(fixture: HiddenHeaderFixture) throws {
        let scratch = try TemporaryDirectory()
        let out = scratch.file("extracted")
        let thumbnail = scratch.file("thumbnail.png")
        let runs: [(String, [String])] = [
            ("info", ["info", fixture.path]),
            ("list", ["list", "--json", fixture.path]),
            ("extract", ["extract", fixture.path, "--to", out]),
            ("thumbnail", ["thumbnail", "-s", "256", fixture.path, thumbnail]),
        ]
        for (command, arguments) in runs {
            let result = try Subprocess.imagegallery(arguments, in: scratch.path)
            #expect(result.status == 65, "\(command) \(fixture.path) exited \(result.status): \(result.stderr)")
            #expect(result.stderr.contains(fixture.id) && result.stderr.contains(fixture.path),
                    "\(command): the error does not name \(fixture.id) and the file: \(result.stderr)")
        }
        // Refused means nothing handed on: no image extracted, no thumbnail drawn.
        if FileManager.default.fileExists(atPath: out) {
            let extracted = try FileManager.default.contentsOfDirectory(atPath: out)
            #expect(extracted.isEmpty, "extract wrote \(extracted)")
        }
        if FileManager.default.fileExists(atPath: thumbnail) {
            let drawn = try #require(try FileManager.default.attributesOfItem(atPath: thumbnail)[.size] as? Int)
            #expect(drawn == 0, "thumbnail wrote \(drawn) bytes")
        }
    }
}
