import Foundation
import GalleryFormat
import GalleryTestSupport
import Testing

/// The rules writers check (`Gallery.brokenRule`) are the decoder's: a gallery breaks a rule
/// exactly when the manifest it encodes to is refused by a reader, with the same id.
@Suite("Manifest rules shared by writers and readers")
struct ManifestRulesTests {
    static let png = PNGBytes.image(seed: 1)

    static func image(id: UUID = UUID(), caption: String? = nil, filename: String? = "a.png", source: String? = nil,
                      width: Int = 8) -> GalleryImage {
        GalleryImage(id: id, mediaType: .png, width: width, height: 6, byteSize: UInt64(png.count),
                     sha256: SHA256Hasher.of(png), source: source, filename: filename, caption: caption)
    }

    static func gallery(title: String = "Rules", generator: String? = "test", images: [GalleryImage] = [image()]) -> Gallery {
        Gallery(id: UUID(), revision: UUID(), title: title, created: Timestamp(seconds: 1_700_000_000),
                modified: Timestamp(seconds: 1_700_000_000), generator: generator, images: images)
    }

    /// Values at each limit and one past it, and malformed forms.
    static let cases: [(String, Gallery, String?)] = {
        let shared = UUID()
        return [
            ("title at 1000", gallery(title: String(repeating: "t", count: 1000)), nil),
            ("title at 1001", gallery(title: String(repeating: "t", count: 1001)), "IG-MAN-008"),
            ("title of 1000 four-byte scalars", gallery(title: String(repeating: "😀", count: 1000)), nil),
            ("title with NUL", gallery(title: "a\u{0}b"), "IG-MAN-008"),
            ("generator at 200", gallery(generator: String(repeating: "g", count: 200)), nil),
            ("generator at 201", gallery(generator: String(repeating: "g", count: 201)), "IG-MAN-008"),
            ("caption at 10000", gallery(images: [image(caption: String(repeating: "c", count: 10_000))]), nil),
            ("caption at 10001", gallery(images: [image(caption: String(repeating: "c", count: 10_001))]), "IG-MAN-008"),
            ("filename with a slash", gallery(images: [image(filename: "a/b.png")]), "IG-MAN-008"),
            ("filename of 256 bytes", gallery(images: [image(filename: String(repeating: "f", count: 256))]), "IG-MAN-008"),
            ("relative source", gallery(images: [image(source: "photos/a.png")]), "IG-MAN-008"),
            ("source past 8192", gallery(images: [image(source: "https://e.example/" + String(repeating: "s", count: 8200))]),
             "IG-MAN-008"),
            ("width zero", gallery(images: [image(width: 0)]), "IG-MAN-008"),
            ("width past 2^31-1", gallery(images: [image(width: 2_147_483_648)]), "IG-MAN-008"),
            ("duplicate image ids", gallery(images: [image(id: shared), image(id: shared)]), "IG-MAN-011"),
            ("100000 images", gallery(images: (0 ..< 100_000).map { _ in image(filename: nil) }), nil),
            ("100001 images", gallery(images: (0 ..< 100_001).map { _ in image(filename: nil) }), "IG-MAN-014"),
        ]
    }()

    @Test("brokenRule agrees with the decoder on every limit", arguments: 0 ..< cases.count)
    func agreesWithDecoder(index: Int) {
        let (name, gallery, expected) = Self.cases[index]
        let decoded = Manifest.decode(Manifest.encode(gallery))
        #expect(decoded.firstError?.code.id == expected, "\(name): the decoder says \(String(describing: decoded.firstError))")
        #expect(gallery.brokenRule()?.code.id == expected, "\(name): the writer's check says \(String(describing: gallery.brokenRule()))")
    }

    @Test("The writer refuses a gallery that breaks a rule and writes nothing")
    func writerRefuses() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("g.imagegallery")
        let gallery = Self.gallery(images: [Self.image(caption: String(repeating: "c", count: 10_001))])
        #expect {
            try GalleryWriter.write(gallery, thumbnail: Self.png, to: path, overwrite: false) { _ in .bytes(Self.png) }
        } throws: { error in
            (error as? GalleryError)?.code == .badValue && (error as? GalleryError)?.location.jsonPointer == "/images/0/caption"
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test("A manifest past the size limit is refused before it is written, as a reader would refuse it")
    func manifestSize() {
        var limits = GalleryLimits()
        limits.maxManifestBytes = 1 << 20
        let caption = String(repeating: "c", count: 10_000)
        for (count, expected) in [(90, nil), (120, "IG-MAN-005")] as [(Int, String?)] {
            let gallery = Self.gallery(images: (0 ..< count).map { _ in Self.image(caption: caption) })
            #expect(gallery.brokenRule(limits: limits)?.code.id == expected, "\(count) captions")
            #expect(Manifest.decode(Manifest.encode(gallery), limits: limits).firstError?.code.id == expected, "\(count) captions")
        }
    }
}
