import Foundation
@testable import GalleryDocument
import GalleryFormat
import GalleryTestSupport
import Testing

/// Random sequences of edits, with values at and just past every limit an edit can reach,
/// never leave a file that the validator refuses; each refused edit names its rule and leaves
/// the document as it was and editable.
@Suite("Document edits keep the format's rules")
struct GalleryDocumentRulesTests {
    enum Step: CaseIterable { case insertData, insertWithSource, title, caption, remove, move, undo, redo, save }

    static let titles = [String(repeating: "t", count: 1000), String(repeating: "t", count: 1001), "a\u{0}b",
                         String(repeating: "é", count: 1000), "", "Plain"]
    static let captions: [String?] = [String(repeating: "c", count: 10_000), String(repeating: "c", count: 10_001),
                                      String(repeating: "😀", count: 10_001), nil, "", "short"]
    static let sources: [String?] = ["https://example.org/a.png", "not a uri", "/relative/path",
                                     "https://example.org/" + String(repeating: "s", count: 8200), nil]
    static let filenames: [String?] = ["a.png", "a/b.png", String(repeating: "f", count: 256), "..", nil, "\u{85}.png"]

    @Test("Random edits at and past the limits never leave an invalid file", arguments: [1, 2, 3, 4] as [UInt64])
    func randomEdits(seed: UInt64) async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("rules.imagegallery")
        let document = try await GalleryDocument.create(at: path, title: "Rules", options: directory.documentOptions())
        var random = SeededGenerator(seed: seed)
        var refusals = 0
        for index in 0 ..< 60 {
            let before = try await document.gallery
            do {
                switch Step.allCases.randomElement(using: &random)! {
                case .insertData:
                    try await document.insertImage(data: TestImage.png(seed: index), filename: Self.filenames.randomElement(using: &random)!,
                                                   caption: Self.captions.randomElement(using: &random)!)
                case .insertWithSource:
                    let file = try TestImage.write(seed: 1000 + index, to: directory.file("in-\(index).png"))
                    try await document.insertImage(fromFile: file, filename: Self.filenames.randomElement(using: &random)!,
                                                   source: Self.sources.randomElement(using: &random)!,
                                                   caption: Self.captions.randomElement(using: &random)!)
                case .title:
                    try await document.setTitle(Self.titles.randomElement(using: &random)!)
                case .caption:
                    if let image = before.images.randomElement(using: &random) {
                        try await document.setCaption(Self.captions.randomElement(using: &random)!, of: image.id)
                    }
                case .remove:
                    if let image = before.images.randomElement(using: &random) { try await document.removeImages([image.id]) }
                case .move:
                    if let image = before.images.randomElement(using: &random) {
                        try await document.moveImage(image.id, to: Int.random(in: 0 ..< before.images.count, using: &random))
                    }
                case .undo: try await document.undo()
                case .redo: try await document.redo()
                case .save: _ = try await document.save()
                }
            } catch let error as DocumentError {
                guard case .breaksFormatRule(let code) = error.kind else { throw error }
                refusals += 1
                #expect(error.description.contains(code.id), "\(error)")
                #expect(try await document.gallery == before, "a refused edit changed the content")
            }
            #expect(try await document.gallery.brokenRule() == nil, "step \(index): the content breaks a rule")
            if index % 10 == 9 {
                _ = try await document.save()
                let report = GalleryValidator.validate(path: path)
                #expect(report.isValid, "step \(index): \(report.diagnostics)")
            }
        }
        _ = try await document.save()
        try DiskGallery.expectValid(path)
        // The values past the limits were tried, so some edits were refused: the check ran.
        #expect(refusals > 0)
        _ = try await document.close()
    }
}
