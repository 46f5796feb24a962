import Foundation
import GalleryFormat
import GalleryImaging
import GallerySystem
import GalleryTestSupport
import SystemPackage
import Testing

/// Entries past 4 GiB need ZIP64 sizes. Writing one takes 4.3 GB of disk and about a minute,
/// so this runs with `make test-large` (IMAGEGALLERY_LARGE_TESTS=1), not in every `make test`.
@Suite("Large archives", .enabled(if: ProcessInfo.processInfo.environment["IMAGEGALLERY_LARGE_TESTS"] != nil,
                                   "too heavy for every run (4.3 GB of disk): make test-large sets IMAGEGALLERY_LARGE_TESTS=1"))
struct LargeArchiveTests {
    /// The fixtures too big to commit, made by the fixture generator at test time.
    @Test func oversizedFixturesGiveTheirErrors() throws {
        let directory = try TemporaryDirectory()
        let made = try Subprocess.run("/usr/bin/python3", [TestPaths.repository + "/scripts/make-fixtures.py", "--large", directory.path])
        #expect(made.status == 0, "\(made.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".imagegallery") }
        #expect(files.count >= 2)
        for name in files {
            let (code, message) = firstProblem(in: directory.file(name))
            #expect(code == String(name.prefix(10)), "\(message ?? "no error")")
        }
    }

    @Test func blobPastFourGiBUsesZip64() throws {
        let directory = try TemporaryDirectory()
        // A PNG signature and IHDR, then zeros: a sparse source costs no disk until it is copied.
        let size: UInt64 = (4 << 30) + 12_345
        let source = directory.file("big.png")
        let head = PNGEncoder.encode(width: 1, height: 1, layout: .grey, pixels: [0])
        try FileBytes.write(head, to: source)
        #expect(truncate(source, off_t(size)) == 0)
        var hasher = SHA256Hasher()
        var crc = CRC32()
        let file = try GalleryFile.openForReading(FilePath(source))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 22, alignment: 64)
        defer { buffer.deallocate() }
        var offset: UInt64 = 0
        while offset < size {
            let got = try file.read(at: offset, into: buffer)
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0 ..< got])
            hasher.update(chunk)
            crc.update(chunk)
            offset += UInt64(got)
        }
        let digest = hasher.finalize()
        let image = GalleryImage(id: UUID(), mediaType: .png, width: 1, height: 1, byteSize: size, sha256: digest)
        let gallery = Gallery(id: UUID(), revision: UUID(), title: "big", created: Timestamp(seconds: 0),
                              modified: Timestamp(seconds: 0), images: [image])
        let output = directory.file("big.imagegallery")
        try GalleryWriter.write(gallery, thumbnail: PlaceholderThumbnail.png(forFirstImage: (1, 1)), to: output,
                                overwrite: false, durable: false) { _ in .checksummedFile(source, crc32: crc.value) }
        try FileManager.default.removeItem(atPath: source)

        let reader = try GalleryReader(path: output)
        let entry = try reader.blobEntry(for: image)
        #expect(entry.uncompressedSize == size)
        var verified: UInt64 = 0
        try reader.readBlob(image) { verified += UInt64($0.count) }
        #expect(verified == size)
        let python = try #require(Subprocess.which("python3"), "python3 is not installed: run scripts/install-deps")
        let listing = try Subprocess.run(python, ["-c", "import zipfile,sys; z=zipfile.ZipFile(sys.argv[1]); "
                                                  + "print(z.infolist()[-1].file_size)", output])
        #expect(listing.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == String(size), "\(listing.stderr)")
    }
}
