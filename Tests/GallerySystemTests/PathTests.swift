@testable import GallerySystem
import Testing

/// Paths are taken apart by their bytes. Each function is checked against a reference written
/// on the UTF-8 bytes, over names built from the scalars that fooled the Character-wise code: a
/// combining mark after "/" or "." ("/\u{301}" is one Character), a prepended mark before them
/// ("\u{600}/" is one too), and NFC beside NFD.
@Suite("Paths by their bytes")
struct PathTests {
    static let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")

    /// Paths made of the awkward pieces, every ordering of a few of them.
    static let paths: [String] = {
        let pieces = ["/", ".", "a", "\u{301}", "\u{600}", "é", "e\u{301}", "//", "..", "\r\n"]
        var made: [String] = [""]
        for _ in 0 ..< 4 { made = made.flatMap { prefix in pieces.map { prefix + $0 } } }
        return made
    }()

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func theFolderAndNameAreCutAtTheLastSlashByte() {
        for path in Self.paths {
            let all = Self.bytes(path)
            let expectedFolder: [UInt8], expectedName: [UInt8]
            if let slash = all.lastIndex(of: Self.slash) {
                expectedFolder = slash == 0 ? [Self.slash] : Array(all[..<slash])
                expectedName = Array(all[(slash + 1)...])
            } else {
                (expectedFolder, expectedName) = ([], all)
            }
            #expect(Self.bytes(GalleryFileSystem.directory(of: path)) == expectedFolder, "\(Self.bytes(path))")
            #expect(Self.bytes(GalleryFileSystem.fileName(of: path)) == expectedName, "\(Self.bytes(path))")
        }
    }

    @Test func componentsAreTheBytesBetweenSlashes() {
        for path in Self.paths {
            let expected = Self.bytes(path).split(separator: Self.slash).map(Array.init)
            #expect(GalleryFileSystem.components(of: path).map(Self.bytes) == expected, "\(Self.bytes(path))")
        }
    }

    @Test func slashesAndDotsAreJudgedByTheFirstAndLastByte() {
        for path in Self.paths {
            let all = Self.bytes(path)
            #expect(GalleryFileSystem.isAbsolute(path) == (all.first == Self.slash), "\(all)")
            #expect(GalleryFileSystem.isHidden(path) == (all.first == Self.dot), "\(all)")
            var trimmed = all
            while trimmed.count > 1, trimmed.last == Self.slash { trimmed.removeLast() }
            #expect(Self.bytes(GalleryFileSystem.withoutTrailingSlashes(path)) == trimmed, "\(all)")
        }
    }

    @Test func theExtensionStartsAtTheLastDotByteUnlessItLeads() {
        for path in Self.paths {
            let name = GalleryFileSystem.fileName(of: path), all = Self.bytes(name)
            let (stem, ext) = GalleryFileSystem.splitExtension(name)
            if let dot = all.lastIndex(of: Self.dot), dot != 0 {
                #expect(Self.bytes(stem) == Array(all[..<dot]) && Self.bytes(ext) == Array(all[dot...]), "\(all)")
            } else {
                #expect(Self.bytes(stem) == all && ext.isEmpty, "\(all)")
            }
        }
    }

    @Test func pathsAreTheSameOnlyByteForByte() {
        #expect("/srv/café" == "/srv/cafe\u{301}", "String equality is canonical equivalence")
        #expect(!GalleryFileSystem.isSamePath("/srv/café", "/srv/cafe\u{301}"))
        #expect(GalleryFileSystem.isSamePath("/srv/cafe\u{301}", "/srv/cafe\u{301}"))
    }

    /// The cases that went wrong, spelled out.
    @Test func theCasesThatFooledCharacters() {
        #expect(GalleryFileSystem.directory(of: "/tmp/x/\u{301}photo.imagegallery") == "/tmp/x")
        #expect(GalleryFileSystem.fileName(of: "/tmp/x/\u{301}photo.imagegallery") == "\u{301}photo.imagegallery")
        #expect(GalleryFileSystem.directory(of: "/tmp/x\u{600}/photo.imagegallery") == "/tmp/x\u{600}")
        #expect(GalleryFileSystem.components(of: "/a/\u{301}b") == ["a", "\u{301}b"])
        #expect(GalleryFileSystem.isAbsolute("/\u{301}tmp"))
        #expect(GalleryFileSystem.isHidden(".\u{301}x"))
        #expect(GalleryFileSystem.splitExtension("x.\u{301}jpg") == ("x", ".\u{301}jpg"))
    }
}
