import Foundation
import GallerySystem
import GalleryTestSupport
import SystemPackage
import Testing
@testable import GalleryEditor

/// The first screen's thumbnails in one answer (EditorRoutes+Screenful): only what the cache
/// holds, in the order asked, each as a data: URL of its own bytes; a bad list is refused by name.
@Suite struct ScreenfulTests {
    @Test func theAnswerHoldsWhatTheCacheHoldsInTheOrderAsked() async throws {
        let cache = try TemporaryDirectory()
        let thumbnails = ImageThumbnails(folder: FilePath(cache.path).appending("thumbnails"))
        let photo = try GalleryFileSystem.contents(of: FilePath(TestPaths.fixture("images/2-tiles.png")))
        let sha = "ab" + String(repeating: "0", count: 62)
        #expect(thumbnails.cachedGrid(sha256: sha) == nil, "an empty cache held a thumbnail")
        let made = try await thumbnails.grid(sha256: sha) { photo }
        let held = try #require(thumbnails.cachedGrid(sha256: sha))
        #expect(held.bytes == made.bytes && held.mediaType == made.mediaType)

        let body = EditorRoutes.screenfulJSON([nil, held, nil])
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [Any])
        #expect(answer.count == 3 && answer[0] is NSNull && answer[2] is NSNull)
        let url = try #require(answer[1] as? String)
        let prefix = "data:\(held.mediaType);base64,"
        #expect(url.hasPrefix(prefix))
        #expect(Data(base64Encoded: String(url.dropFirst(prefix.count))) == Data(held.bytes))
    }

    @Test func aBadListOfIdsIsRefusedAndSaysWhy() throws {
        let id = UUID()
        #expect(try EditorRoutes.screenfulIDs("\(id.uuidString.lowercased()),\(id.uuidString)") == [id, id])
        let refusals: [(String?, String)] = [
            (nil, "names no image"), ("", "names no image"), ("\(id),", "\"\" is not an image's id"),
            ("not-an-id", "\"not-an-id\" is not an image's id"),
            (Array(repeating: id.uuidString, count: EditorRoutes.screenfulLimit + 1).joined(separator: ","), "at most 200 at once"),
        ]
        for (text, words) in refusals {
            do {
                _ = try EditorRoutes.screenfulIDs(text)
                Issue.record("\(text ?? "nil") was taken")
            } catch {
                #expect("\(error)".contains(words), "\(error)")
            }
        }
    }
}
