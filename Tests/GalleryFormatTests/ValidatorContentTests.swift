import Foundation
@testable import GalleryFormat
@testable import GalleryImageHeaders
import GalleryImaging
import GallerySystem
import GalleryTestSupport
import SystemPackage
import Testing

/// Blob and thumbnail checks, each on a gallery built with exactly one defect.
@Suite("Validator: blobs and thumbnail")
struct ValidatorContentTests {
    static let png = PNGEncoder.encode(width: 3, height: 2, layout: .rgb, pixels: [UInt8](repeating: 9, count: 18))
    static let otherPNG = PNGEncoder.encode(width: 5, height: 4, layout: .grey, pixels: [UInt8](repeating: 1, count: 20))
    static let jpeg = try! FileBytes.read(TestPaths.fixture("images/1-sunset.jpg"))

    /// A gallery listing `images`, whose archive holds `entries` (name → bytes) after the
    /// manifest and `thumbnail`.
    func write(images: [GalleryImage], entries: [(String, [UInt8])], thumbnail: [UInt8]? = PlaceholderThumbnail.png(forFirstImage: (3, 2)),
               to path: String) throws {
        let gallery = Gallery(id: UUID(), revision: UUID(), title: "t", created: Timestamp(seconds: 0),
                              modified: Timestamp(seconds: 0), images: images)
        let file = try GalleryFile.create(FilePath(path))
        let zip = ZipWriter(file: file, modified: Timestamp(seconds: 0))
        try zip.add(name: "mimetype", bytes: Array(GalleryPackage.mediaType.utf8), method: .stored)
        try zip.add(name: "manifest.json", bytes: Manifest.encode(gallery), method: .deflated)
        if let thumbnail { try zip.add(name: "thumbnail.png", bytes: thumbnail, method: .stored) }
        for (name, bytes) in entries { try zip.add(name: name, bytes: bytes, method: .stored) }
        try zip.finish()
    }

    func image(_ bytes: [UInt8], _ type: MediaType = .png, width: Int = 3, height: Int = 2, size: UInt64? = nil,
               sha: SHA256Digest? = nil) -> GalleryImage {
        GalleryImage(id: UUID(), mediaType: type, width: width, height: height, byteSize: size ?? UInt64(bytes.count),
                     sha256: sha ?? SHA256Hasher.of(bytes))
    }

    func ids(_ images: [GalleryImage], _ entries: [(String, [UInt8])], thumbnail: [UInt8]? = PlaceholderThumbnail.png(forFirstImage: (3, 2))) throws -> [String] {
        let directory = try TemporaryDirectory()
        let path = directory.file("g.imagegallery")
        try write(images: images, entries: entries, thumbnail: thumbnail, to: path)
        return GalleryValidator.validate(path: path).diagnostics.map(\.code.id)
    }

    @Test func aSoundGalleryHasNoFindings() throws {
        let good = image(Self.png)
        #expect(try ids([good], [(good.path, Self.png)]) == [])
    }

    @Test func missingBlob() throws {
        #expect(try ids([image(Self.png)], []) == ["IG-BLB-001"])
    }

    @Test func orphanBlobIsAWarning() throws {
        let good = image(Self.png)
        let orphan = "images/" + SHA256Hasher.of(Self.otherPNG).hex + ".png"
        let directory = try TemporaryDirectory()
        let path = directory.file("g.imagegallery")
        try write(images: [good], entries: [(good.path, Self.png), (orphan, Self.otherPNG)], to: path)
        let report = GalleryValidator.validate(path: path)
        #expect(report.diagnostics.map(\.code.id) == ["IG-BLB-002"])
        #expect(report.isValid, "an orphan is a warning, not an error")
    }

    @Test func hashMismatch() throws {
        let claimed = image(Self.png, sha: SHA256Hasher.of([1]))
        #expect(try ids([claimed], [(claimed.path, Self.png)]) == ["IG-BLB-003"])
    }

    @Test func sizeMismatch() throws {
        let claimed = image(Self.png, size: UInt64(Self.png.count + 1))
        #expect(try ids([claimed], [(claimed.path, Self.png)]) == ["IG-BLB-004"])
    }

    @Test func mediaTypeAgainstMagic() throws {
        let mislabelled = image(Self.jpeg, .png, width: 800, height: 600)
        #expect(try ids([mislabelled], [(mislabelled.path, Self.jpeg)]) == ["IG-BLB-005"])
        let html = Array("<html>not an image</html>".utf8)
        let page = image(html, .jpeg)
        #expect(try ids([page], [(page.path, html)]) == ["IG-BLB-005"])
    }

    @Test func dimensionsAgainstHeader() throws {
        let wrong = image(Self.png, width: 30, height: 2)
        let result = try ids([wrong], [(wrong.path, Self.png)])
        #expect(result == ["IG-BLB-006"])
        let jpegWrong = image(Self.jpeg, .jpeg, width: 600, height: 800)
        #expect(try ids([jpegWrong], [(jpegWrong.path, Self.jpeg)]) == ["IG-BLB-006"])
    }

    @Test func unreadableHeader() throws {
        // A PNG signature and nothing after it.
        let stub: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]
        let broken = image(stub)
        #expect(try ids([broken], [(broken.path, stub)]) == ["IG-BLB-007"])
    }

    @Test func thumbnailRules() throws {
        let good = image(Self.png)
        let blobs = [(good.path, Self.png)]
        #expect(try ids([good], blobs, thumbnail: nil) == ["IG-THM-001"])
        #expect(try ids([good], blobs, thumbnail: Self.jpeg) == ["IG-THM-002"])
        var sixteen = Self.png
        sixteen[24] = 16  // IHDR bit depth; the chunk CRC then fails, so fix it
        let fixed = PNGHeaderPatch.recomputeIHDRCRC(sixteen)
        #expect(try ids([good], blobs, thumbnail: fixed) == ["IG-THM-003"])
        var interlaced = Self.png
        interlaced[28] = 1
        #expect(try ids([good], blobs, thumbnail: PNGHeaderPatch.recomputeIHDRCRC(interlaced)) == ["IG-THM-004"])
        let wide = PNGEncoder.encode(width: 2000, height: 1, layout: .grey, pixels: [UInt8](repeating: 0, count: 2000))
        #expect(try ids([good], blobs, thumbnail: wide) == ["IG-THM-005"])
        var unreadable = Self.png
        unreadable[12] = UInt8(ascii: "X")  // the chunk is no longer IHDR
        #expect(try ids([good], blobs, thumbnail: unreadable) == ["IG-THM-006"])
    }
}

enum PNGHeaderPatch {
    /// Recomputes the CRC of the IHDR chunk after a test edits its fields.
    static func recomputeIHDRCRC(_ png: [UInt8]) -> [UInt8] {
        var bytes = png
        let crc = CRC32.of(Array(bytes[12 ..< 29]))
        bytes[29] = UInt8(crc >> 24)
        bytes[30] = UInt8((crc >> 16) & 0xFF)
        bytes[31] = UInt8((crc >> 8) & 0xFF)
        bytes[32] = UInt8(crc & 0xFF)
        return bytes
    }
}
