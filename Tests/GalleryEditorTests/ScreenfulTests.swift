import Foundation
import GalleryDocument
import GalleryFormat
import GalleryImaging
import GallerySystem
import GalleryTestSupport
import SystemPackage
import Testing
@testable import GalleryEditor

/// The first screen's thumbnails in one answer (EditorRoutes+Screenful): what the cache holds, and
/// what it lacks where that is cheap to make, in the order asked, each as a data: URL of its own
/// bytes; a bad list is refused by name.
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

    /// With the document open, the thumbnails the cache lacks are made for the answer (and kept),
    /// those of pictures that cost little to decode; a picture past the budget, alone or with the
    /// others before it, is left to the page's own request.
    @Test func whatTheCacheLacksIsMadeWhereItIsCheap() async throws {
        let folder = try TemporaryDirectory()
        let path = try folder.copy(TestPaths.fixture("valid/all.imagegallery"))
        let desk = DocumentDesk(library: GalleryLibrary(roots: try EditorRoots(paths: [folder.path])), events: EditorEvents(),
                                options: DocumentOptions())
        let key = GalleryLibrary.key(of: try GalleryFileSystem.resolvedPath(FilePath(path)).string)
        let document = try await desk.document(key, for: "page")
        let images = try await document.gallery.images
        let screen = try await desk.screenImages(key, of: images.map(\.id).reversed())
        guard case .opened(let opened, let found) = screen else {
            Issue.record("no document for the screen of an open one")
            return
        }
        #expect(opened === document && found.count == images.count)
        #expect(images.allSatisfy { found[$0.id] == $0 && screen.blob(of: $0.id) == $0.sha256 })

        let costs = images.map { DecodeCost.nanoseconds($0.mediaType, pixels: $0.width * $0.height, bytes: Int($0.byteSize)) }
        #expect(costs.allSatisfy { $0 <= EditorRoutes.screenMaking.each }, "a fixture past the budget: \(costs)")
        // A budget for each that only the cheapest fits; then one in all that only the first two fit.
        let cheapest = try #require(costs.min())
        let places = Array(images.enumerated())
        let thumbnails = ImageThumbnails(folder: FilePath(folder.path).appending("each"))
        let alone = await EditorRoutes.madeForScreen(places, of: document, thumbnails: thumbnails, budget: (total: .infinity, each: cheapest))
        #expect(Set(alone.map(\.0)) == Set(costs.indices.filter { costs[$0] == cheapest }))
        let firstTwo = await EditorRoutes.madeForScreen(places, of: document, thumbnails: ImageThumbnails(folder: FilePath(folder.path).appending("total")),
                                                        budget: (total: costs[0] + costs[1], each: .infinity))
        #expect(Set(firstTwo.map(\.0)) == [0, 1])

        // Under the budget the answer holds every one, in the order asked, each made then and what
        // the cache holds now.
        let cache = ImageThumbnails(folder: FilePath(folder.path).appending("thumbnails"))
        let answer = await EditorRoutes.screenThumbnails(images.map(\.id), found: screen, thumbnails: cache)
        #expect(answer.count == images.count)
        for (image, rendition) in zip(images, answer) {
            #expect(rendition != nil && cache.cachedGrid(sha256: image.sha256.description)?.bytes == rendition?.bytes, "\(image.id)")
        }
        await desk.closeAll().forEach { Issue.record("\($0)") }
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
