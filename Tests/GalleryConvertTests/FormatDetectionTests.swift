import GalleryConvert
import GalleryTestSupport
import Testing

/// Content first, the name second.
@Suite("Conversion: format detection")
struct FormatDetectionTests {
    static let cases: [(head: [UInt8], name: String, format: ConversionFormat, archive: ArchiveKind?)] = [
        (Array("PK\u{3}\u{4}".utf8) + [UInt8](repeating: 0, count: 26) + Array("mimetypeapplication/vnd.imagegallery+zip".utf8),
         "renamed.zip", .gallery, nil),
        (Array("PK\u{3}\u{4}".utf8) + [UInt8](repeating: 0, count: 40), "photos.zip", .archive, .zip),
        (Array("PK\u{3}\u{4}".utf8) + [UInt8](repeating: 0, count: 40), "issue-1.CBZ", .comic, .zip),
        ([0x1F, 0x8B, 8, 0], "photos.tar.gz", .archive, .tar),
        ([0x1F, 0x8B, 8, 0], "issue.cbt", .comic, .tar),
        (Array("BZh91AY".utf8), "no-extension", .archive, .tar),
        ([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], "x.txz", .archive, .tar),
        ([0x28, 0xB5, 0x2F, 0xFD], "x.tar.zst", .archive, .tar),
        ([0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C, 0, 4], "issue.cb7", .comic, .sevenZip),
        (Array("Rar!\u{1A}\u{07}\u{01}\u{00}".utf8), "photos.rar", .archive, .rar),
        (Array("  \n{\"title\": \"Trip\"}".utf8), "gallery.txt", .seedJSON, nil),
        (Array("[{\"title\": \"Trip\"}]".utf8), "store", .seedJSON, nil),
        ([0xEF, 0xBB, 0xBF] + Array("{}".utf8), "bom.json", .seedJSON, nil),
    ]

    @Test(arguments: 0 ..< cases.count)
    func contentDecides(_ index: Int) throws {
        let example = Self.cases[index]
        let detected = try FormatDetection.detect(head: example.head, name: example.name)
        #expect(detected.format == example.format, "\(example.name)")
        #expect(detected.archive == example.archive, "\(example.name)")
    }

    @Test func aTarIsKnownByItsUstarMagic() throws {
        var head = [UInt8](repeating: 0, count: 512)
        head.replaceSubrange(257 ..< 262, with: Array("ustar".utf8))
        #expect(try FormatDetection.detect(head: head, name: "archive.bin").format == .archive)
    }

    @Test func unknownBytesAndNameAreRefusedWithTheName() {
        #expect {
            try FormatDetection.detect(head: Array("GIF89a".utf8), name: "/tmp/picture.gif")
        } throws: { error in
            "\(error)".hasPrefix("/tmp/picture.gif: ")
        }
    }

    @Test func theOutputNameSuggestsAForm() {
        #expect(FormatDetection.outputFormat(for: "out/x.imagegallery") == .gallery)
        #expect(FormatDetection.outputFormat(for: "x.CBZ") == .comic)
        #expect(FormatDetection.outputFormat(for: "folder") == nil)
    }
}
