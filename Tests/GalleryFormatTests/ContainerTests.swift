import CArchive
import Foundation
@testable import GalleryFormat
import GalleryImaging
import GallerySystem
import GalleryTestSupport
import SystemPackage
import Testing

/// A gallery of `count` small distinct blobs held in memory.
func makeGallery(count: Int, title: String = "Container test") -> (Gallery, [SHA256Digest: [UInt8]]) {
    var blobs: [SHA256Digest: [UInt8]] = [:]
    var images: [GalleryImage] = []
    for index in 0 ..< count {
        let bytes = PNGEncoder.encode(width: 1, height: 1, layout: .grey, pixels: [UInt8(index & 0xFF)],
                                      text: [("n", String(index))])
        let digest = SHA256Hasher.of(bytes)
        blobs[digest] = bytes
        images.append(GalleryImage(id: UUID.nameBased(namespace: GalleryNamespace.documents, name: "\(index)"),
                                   mediaType: .png, width: 1, height: 1, byteSize: UInt64(bytes.count), sha256: digest))
    }
    let gallery = Gallery(id: UUID.nameBased(namespace: GalleryNamespace.documents, name: title),
                          revision: UUID.nameBased(namespace: GalleryNamespace.documents, name: "r"), title: title,
                          created: Timestamp(seconds: 1_767_323_045), modified: Timestamp(seconds: 1_767_323_045),
                          images: images)
    return (gallery, blobs)
}

func writeGallery(_ gallery: Gallery, blobs: [SHA256Digest: [UInt8]], to path: String) throws {
    try GalleryWriter.write(gallery, thumbnail: PlaceholderThumbnail.png(forFirstImage: (1, 1)), to: path,
                            overwrite: true) { .bytes(blobs[$0.sha256]!) }
}

/// Reads every entry with libarchive (an independent reader), returning name → bytes.
func readWithLibarchive(_ path: String) throws -> [(String, [UInt8])] {
    let archive = archive_read_new()!
    defer { archive_read_free(archive) }
    archive_read_support_format_zip_seekable(archive)
    guard archive_read_open_filename(archive, path, 1 << 16) == ARCHIVE_OK else {
        throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: path])
    }
    var entries: [(String, [UInt8])] = []
    var entry: OpaquePointer?
    while archive_read_next_header(archive, &entry) == ARCHIVE_OK {
        let name = String(cString: archive_entry_pathname_utf8(entry))
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = archive_read_data(archive, &buffer, buffer.count)
            // A CRC mismatch comes back as a warning: treat anything but data as failure.
            guard n >= 0 else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: name]) }
            if n == 0 { break }
            bytes += buffer[0 ..< n]
        }
        entries.append((name, bytes))
    }
    return entries
}

@Suite("Container writer and reader")
struct ContainerTests {
    @Test func writesTheDetectableLayout() throws {
        let directory = try TemporaryDirectory()
        let (gallery, blobs) = makeGallery(count: 3)
        let path = directory.file("g.imagegallery")
        try writeGallery(gallery, blobs: blobs, to: path)
        let bytes = try FileBytes.read(path)
        #expect(Array(bytes[0 ..< 4]) == [0x50, 0x4B, 0x03, 0x04])
        #expect(Array(bytes[6 ..< 8]) == [0x00, 0x08], "flags: UTF-8 only, no data descriptor")
        #expect(Array(bytes[8 ..< 10]) == [0, 0], "mimetype is stored")
        #expect(Array(bytes[28 ..< 30]) == [0, 0], "mimetype has no extra field")
        #expect(String(decoding: bytes[30 ..< 38], as: UTF8.self) == "mimetype")
        #expect(String(decoding: bytes[38 ..< 70], as: UTF8.self) == "application/vnd.imagegallery+zip")

        let archive = try ZipArchive(path: path)
        #expect(archive.entries.map(\.name) == ["mimetype", "manifest.json", "thumbnail.png"] + gallery.images.map(\.path))
        #expect(archive.entries.map(\.method) == [.stored, .deflated, .stored, .stored, .stored, .stored])
        #expect(archive.entries.allSatisfy { !$0.usesDataDescriptor })
    }

    @Test func isDeterministic() throws {
        let directory = try TemporaryDirectory()
        let (gallery, blobs) = makeGallery(count: 5)
        try writeGallery(gallery, blobs: blobs, to: directory.file("a"))
        try writeGallery(gallery, blobs: blobs, to: directory.file("b"))
        #expect(try FileBytes.read(directory.file("a")) == FileBytes.read(directory.file("b")))
    }

    @Test func roundTripsThroughOurReaderAndLibarchive() throws {
        let directory = try TemporaryDirectory()
        let (gallery, blobs) = makeGallery(count: 4)
        let path = directory.file("g.imagegallery")
        try writeGallery(gallery, blobs: blobs, to: path)

        let reader = try GalleryReader(path: path)
        #expect(reader.gallery == gallery)
        #expect(reader.diagnostics.isEmpty)
        for image in gallery.images {
            var bytes: [UInt8] = []
            try reader.readBlob(image) { bytes += $0 }
            #expect(bytes == blobs[image.sha256])
        }

        let entries = try readWithLibarchive(path)
        #expect(entries.map(\.0) == ["mimetype", "manifest.json", "thumbnail.png"] + gallery.images.map(\.path))
        #expect(entries[0].1 == Array("application/vnd.imagegallery+zip".utf8))
        #expect(entries[1].1 == Manifest.encode(gallery))
        for (name, bytes) in entries.dropFirst(3) {
            #expect(SHA256Hasher.of(bytes).hex == String(name.dropFirst("images/".count).prefix(64)))
        }
    }

    @Test(arguments: [0, 1, 2])
    func writesSmallGalleries(count: Int) throws {
        let directory = try TemporaryDirectory()
        let (gallery, blobs) = makeGallery(count: count)
        let path = directory.file("g.imagegallery")
        try writeGallery(gallery, blobs: blobs, to: path)
        #expect(try GalleryReader(path: path).gallery == gallery)
        #expect(try readWithLibarchive(path).count == 3 + count)
    }

    @Test func storesIdenticalImagesOnce() throws {
        let directory = try TemporaryDirectory()
        var (gallery, blobs) = makeGallery(count: 2)
        var twin = gallery.images[0]
        twin.id = UUID()
        gallery.images.append(twin)
        let path = directory.file("g.imagegallery")
        try writeGallery(gallery, blobs: blobs, to: path)
        let archive = try ZipArchive(path: path)
        #expect(archive.entries.count == 3 + 2)
        #expect(try GalleryReader(path: path).gallery.images.count == 3)
    }

    @Test func usesZip64PastSixtyFiveThousandEntries() throws {
        let directory = try TemporaryDirectory()
        let (gallery, blobs) = makeGallery(count: 65_600)
        let path = directory.file("many.imagegallery")
        try writeGallery(gallery, blobs: blobs, to: path)
        let bytes = try FileBytes.read(path)
        let eocd = bytes.count - 22
        #expect(Array(bytes[eocd ..< eocd + 4]) == [0x50, 0x4B, 0x05, 0x06])
        #expect(Array(bytes[eocd + 10 ..< eocd + 12]) == [0xFF, 0xFF], "the classic count defers to ZIP64")
        #expect(Array(bytes[eocd - 20 ..< eocd - 16]) == [0x50, 0x4B, 0x06, 0x07], "a ZIP64 locator precedes the EOCD")
        let reader = try GalleryReader(path: path)
        #expect(reader.archive.entries.count == 65_603)
        #expect(reader.gallery.images.count == 65_600)
        // Python is a declared test dependency (scripts/install-deps): its absence is a failure.
        let python = try #require(Subprocess.which("python3"), "python3 is not installed: run scripts/install-deps")
        let result = try Subprocess.run(python, ["-m", "zipfile", "-t", path])
        #expect(result.status == 0, "python zipfile: \(result.stdout) \(result.stderr)")
    }

    @Test func limitsAreEnforcedWhereTheyApply() throws {
        let directory = try TemporaryDirectory()
        let (gallery, blobs) = makeGallery(count: 3)
        let path = directory.file("g.imagegallery")
        try writeGallery(gallery, blobs: blobs, to: path)
        func code(_ adjust: (inout GalleryLimits) -> Void) -> String? {
            var limits = GalleryLimits()
            adjust(&limits)
            do { _ = try GalleryReader(path: path, limits: limits); return nil } catch let error as GalleryError {
                return error.code.id
            } catch { return "\(error)" }
        }
        #expect(code { _ in } == nil)
        #expect(code { $0.maxEntries = 5 } == "IG-PKG-023")
        #expect(code { $0.maxCentralDirectoryBytes = 100 } == "IG-PKG-023")
        #expect(code { $0.maxManifestBytes = 100 } == "IG-MAN-005")
        #expect(code { $0.maxImages = 2 } == "IG-MAN-014")
        #expect(code { $0.maxEntryNameBytes = 20 } == "IG-PKG-024")
        #expect(code { $0.maxTotalUncompressedBytes = 100 } == "IG-PKG-027")
    }

    /// Every ZIP64 path (entry sizes, entry offsets, the ZIP64 end records, the locator's
    /// offset) on a small archive, by lowering the writer's threshold from 4 GiB to 64 bytes.
    @Test func zip64PathsRoundTrip() throws {
        let directory = try TemporaryDirectory()
        let (gallery, blobs) = makeGallery(count: 5)
        let path = directory.file("zip64.imagegallery")
        let file = try GalleryFile.create(FilePath(path))
        try GalleryWriter.writeArchive(gallery, thumbnail: PlaceholderThumbnail.png(forFirstImage: (1, 1)), to: file,
                                       durable: false, zip64Threshold: 64, progress: nil) { .bytes(blobs[$0.sha256]!) }
        let bytes = try FileBytes.read(path)
        let eocd = bytes.count - 22
        #expect(Array(bytes[eocd - 20 ..< eocd - 16]) == [0x50, 0x4B, 0x06, 0x07], "a ZIP64 locator precedes the EOCD")
        let archive = try ZipArchive(path: path)
        #expect(archive.entries.count == 8)
        let reader = try GalleryReader(path: path)
        #expect(reader.gallery == gallery)
        for image in gallery.images { try reader.readBlob(image) { _ in } }
        #expect(try archive.scanLayout().isEmpty, "no gaps: every record was placed where the headers say")
        #expect(try readWithLibarchive(path).count == 8)
        // Python is a declared test dependency (scripts/install-deps): its absence is a failure.
        let python = try #require(Subprocess.which("python3"), "python3 is not installed: run scripts/install-deps")
        let result = try Subprocess.run(python, ["-m", "zipfile", "-t", path])
        #expect(result.status == 0, "python zipfile: \(result.stdout) \(result.stderr)")
    }

    @Test func neverLeavesAPartialFile() throws {
        let directory = try TemporaryDirectory()
        let (gallery, blobs) = makeGallery(count: 3)
        let path = directory.file("g.imagegallery")
        try writeGallery(gallery, blobs: blobs, to: path)
        let before = try FileBytes.read(path)
        var broken = gallery
        broken.title = "changed"
        #expect(throws: GalleryError.self) {
            try GalleryWriter.write(broken, thumbnail: [], to: path, overwrite: true) { image in
                image.sha256 == gallery.images.last!.sha256 ? .bytes([1, 2]) : .bytes(blobs[image.sha256]!)
            }
        }
        #expect(try FileBytes.read(path) == before, "a failed save must leave the original untouched")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(leftovers == ["g.imagegallery"], "no temporary file may remain")
    }

    @Test func refusesToReplaceWithoutOverwrite() throws {
        let directory = try TemporaryDirectory()
        let (gallery, blobs) = makeGallery(count: 1)
        let path = directory.file("g.imagegallery")
        try writeGallery(gallery, blobs: blobs, to: path)
        #expect(throws: FileSystemError.self) {
            try GalleryWriter.write(gallery, thumbnail: [], to: path, overwrite: false) { .bytes(blobs[$0.sha256]!) }
        }
    }

    /// What the quick scan (which finds `manifest.json` so that it is read while the central
    /// directory is parsed) makes of a file's manifest record.
    static func quickFindManifest(_ path: String) throws -> ZipEntry? {
        let file = try GalleryFile.openForReading(FilePath(path))
        let layout = try ZipArchive.readEndRecords(file: file, size: try file.size, limits: .default)
        let directory = try file.read(at: layout.centralOffset, count: Int(layout.centralSize))
        return directory.withUnsafeBytes { ZipArchive.quickFind("manifest.json", in: $0, count: layout.entryCount) }
    }

    /// The quick scan and the full parse widen a header's fields through one function. They used
    /// to differ on a disk number start of 0xFFFF: the scan ignored it and found the manifest in a
    /// header whose ZIP64 extra is too short, which the parse refuses (IG-PKG-030).
    @Test func quickScanAndFullParseAgreeOnZip64Markers() throws {
        let path = TestPaths.fixture("invalid/IG-PKG-030-disk-start-zip64-too-short.imagegallery")
        #expect(try Self.quickFindManifest(path) == nil, "the scan must not find a record the parse refuses")
        let (code, message) = firstProblem(in: path)
        #expect(code == "IG-PKG-030", "\(message ?? "no error")")
        let report = GalleryValidator.validate(path: path)
        #expect(report.diagnostics.first?.code.id == "IG-PKG-030", "\(report.diagnostics)")
        #expect(!report.isValid)
        // On every file that opens, the scan finds exactly the record the parse finds.
        let readable = try TestPaths.fixtures(in: "valid", withExtension: "imagegallery")
            + TestPaths.fixtures(in: "tolerant", withExtension: "imagegallery")
        #expect(readable.count > 10)
        for fixture in readable {
            let parsed = try #require(try ZipArchive(path: fixture).entry(named: "manifest.json"), "\(fixture)")
            #expect(try Self.quickFindManifest(fixture) == parsed, "\(fixture)")
        }
    }

    /// APPNOTE 4.5.3: the ZIP64 extra holds, in order, only the values whose classic field is the
    /// marker: uncompressed size, compressed size, local header offset (8 bytes each), disk start (4).
    @Test func zip64WideningTakesEachMarkedValueInOrder() {
        func header(uncompressed: UInt32 = 10, compressed: UInt32 = 10, offset: UInt32 = 100, disk: UInt16 = 0) -> CentralFileHeader {
            CentralFileHeader(versionMadeBy: 0x032D, versionNeeded: 45, flags: 0x0800, method: 0, dosTime: 0, dosDate: 0x21,
                              crc32: 0, compressedSize: compressed, uncompressedSize: uncompressed, nameLength: 1,
                              extraLength: 0, commentLength: 0, diskNumberStart: disk, internalAttributes: 0,
                              externalAttributes: 0, localHeaderOffset: offset)
        }
        func zip64(_ values: [UInt64], disk: UInt32? = nil, declared: Int? = nil) -> [UInt8] {
            var data: [UInt8] = []
            for value in values { data.appendLE(value) }
            if let disk { data.appendLE(disk) }
            var out: [UInt8] = []
            out.appendLE(UInt16(1))
            out.appendLE(UInt16(declared ?? data.count))
            return out + data
        }
        func values(_ header: CentralFileHeader, _ extra: [UInt8]) -> ZipArchive.CentralValues? {
            extra.withUnsafeBytes { ZipArchive.centralValues(of: header, extra: $0) }
        }
        let foreign: [UInt8] = [0x55, 0x54, 0x05, 0x00, 1, 0, 0, 0, 0]
        // No marker: the classic values, whatever the extra holds (even a malformed one).
        #expect(values(header(), [0x01, 0x00, 0x08, 0x00]) == .init(uncompressed: 10, compressed: 10, localOffset: 100, diskStart: 0))
        // Every marker, after a foreign extra.
        #expect(values(header(uncompressed: .max, compressed: .max, offset: .max, disk: .max),
                       foreign + zip64([5_000_000_000, 4_000_000_000, 6_000_000_000], disk: 0))
                == .init(uncompressed: 5_000_000_000, compressed: 4_000_000_000, localOffset: 6_000_000_000, diskStart: 0))
        // Only the offset and the disk are marked: they are the first two values.
        #expect(values(header(offset: .max, disk: .max), zip64([7_000_000_000], disk: 0))
                == .init(uncompressed: 10, compressed: 10, localOffset: 7_000_000_000, diskStart: 0))
        // The disk alone: a 4-byte extra.
        #expect(values(header(disk: .max), zip64([], disk: 0)) == .init(uncompressed: 10, compressed: 10, localOffset: 100, diskStart: 0))
        // A marker with nothing behind it.
        #expect(values(header(disk: .max), []) == nil)
        #expect(values(header(disk: .max), foreign) == nil)
        #expect(values(header(disk: .max), zip64([], disk: 0, declared: 8)) == nil, "the record runs past the extra")
        #expect(values(header(offset: .max, disk: .max), zip64([7_000_000_000])) == nil, "the disk number is missing")
        #expect(values(header(uncompressed: .max), zip64([], disk: 0)) == nil, "4 bytes are no size")
    }
}
