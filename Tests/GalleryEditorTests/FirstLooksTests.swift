import Foundation
import GalleryDocument
import GalleryFormat
import GallerySystem
import GalleryTestSupport
import SystemPackage
import Testing
@testable import GalleryEditor

/// The first look kept for a gallery's next open (FirstLooks, issue 34: a warm first paint at
/// 100,000 images without waiting for a 37 MB manifest): given only for the file it was made
/// from, the same bytes as the document's own first look but for `early`, and nothing at all
/// from a damaged cache file.
@Suite struct FirstLooksTests {
    struct NoLookKept: Error, CustomStringConvertible { var description: String }

    let folder: TemporaryDirectory
    let cache: TemporaryDirectory
    let looks: FirstLooks
    let desk: DocumentDesk
    let path: FilePath
    let key: String

    init() throws {
        folder = try TemporaryDirectory()
        cache = try TemporaryDirectory()
        path = try GalleryFileSystem.resolvedPath(FilePath(try folder.copy(TestPaths.fixture("valid/all.imagegallery"))))
        // Two images whole: the fixture's ten are then a large gallery, as 100,000 are to the page's 1,000.
        looks = FirstLooks(folder: FilePath(cache.path).appending("looks"), count: 2, settle: .zero)
        desk = DocumentDesk(library: GalleryLibrary(roots: try EditorRoots(paths: [folder.path])), events: EditorEvents(),
                            options: DocumentOptions(), looks: looks)
        key = GalleryLibrary.key(of: path.string)
    }

    /// The look's file once the desk has written it (off the desk, after the open or the save).
    func lookKept(matching: (FirstLooks.Look) -> Bool = { _ in true }) async throws -> FirstLooks.Look {
        for _ in 0 ..< 500 {
            if let look = looks.look(key: key, path: path), matching(look) { return look }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw NoLookKept(description: "no look was kept for \(path) in \(looks.folder)")
    }

    /// `view` without the members only a kept look has (`"early":true`, and `fileToken` with its
    /// 16 hex digits), as the document's own first look writes it.
    func withoutEarly(_ view: [UInt8]) -> [UInt8] {
        var view = view
        for (member, valueLength) in [(#""early":true,"#, 0), (#""fileToken":""#, 18)] {
            let member = Array(member.utf8)
            guard let at = (0 ... view.count - member.count).first(where: { view[$0 ..< $0 + member.count].elementsEqual(member) })
            else { continue }
            view.removeSubrange(at ..< at + member.count + valueLength)
        }
        return view
    }

    @Test func theNextOpenOfTheSameFileGetsTheFirstLookTheDocumentWouldGive() async throws {
        #expect(try await desk.earlyLook(key, first: 2) == nil, "a look before any open")
        let document = try await desk.document(key, for: "page")
        let own = try await desk.view(key, first: 2).json
        let images = try await document.gallery.images
        _ = try await lookKept()
        await desk.pageClosed("page")
        #expect(await !desk.isOpen(key))

        // Only the owner reads it: it holds the gallery's title, file names and captions.
        let file = try #require(looks.file(for: key))
        #expect(try FileManager.default.attributesOfItem(atPath: file.string)[.posixPermissions] as? Int == 0o600)
        let early = try #require(try await desk.earlyLook(key, first: 2))
        #expect(early != own && withoutEarly(early) == own, "the look is the document's own first look, marked early")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(early)) as? [String: Any])
        #expect(json["early"] as? Bool == true && (json["images"] as? [Any])?.count == 2 && json["imageCount"] as? Int == images.count)
        // The first screen's thumbnails are found by the look's blobs while the document opens.
        let ids = images.prefix(3).map(\.id)
        let screen = try await desk.screenImages(key, of: ids)
        guard case .early(let blobs) = screen else {
            Issue.record("a document, and so thumbnails made, before the page asked for it")
            return
        }
        #expect(blobs == [ids[0]: images[0].sha256, ids[1]: images[1].sha256], "the blobs of the images the look names whole")
        #expect(try await desk.earlyLook(key, first: 3) == nil, "a look of another size")

        // Once open, the document answers: no early look, and the blobs are its own.
        _ = try await desk.document(key, for: "page")
        #expect(try await desk.earlyLook(key, first: 2) == nil, "an early look of an open document")
        let opened = try await desk.screenImages(key, of: ids)
        guard case .opened(_, let found) = opened else {
            Issue.record("no document once open")
            return
        }
        #expect(found.count == 3 && ids.allSatisfy { opened.blob(of: $0) == found[$0]?.sha256 })
        await desk.closeAll().forEach { Issue.record("\($0)") }
    }

    @Test func theWholeListIsKeptBesideTheLookForThePageToFillItsGrid() async throws {
        let document = try await desk.document(key, for: "page")
        let images = try await document.gallery.images
        let look = try await lookKept()
        await desk.closeAll().forEach { Issue.record("\($0)") }
        let view = try #require(try JSONSerialization.jsonObject(with: Data(look.view)) as? [String: Any])
        let token = try #require(view["fileToken"] as? String, "the look names the file's revision")

        // Any piece of the list, as the document's own pieces write it, with the look's token.
        for (from, count, expected) in [(0, 100, 0 ..< 10), (3, 4, 3 ..< 7), (8, 5, 8 ..< 10), (9, 1, 9 ..< 10), (12, 3, 10 ..< 10)] {
            let piece = try #require(try await desk.earlyImages(key, from: from, count: count), "no early piece at \(from)")
            #expect(piece.json == DocumentView.imagesJSON(images[expected]), "the piece at \(from) of \(count)")
            #expect(piece.from == expected.lowerBound && piece.total == images.count && piece.token == token)
        }
        // Every image's blob while the document is not open: a thumbnail the cache holds needs no open.
        for image in images { #expect(await desk.earlyBlob(key, of: image.id) == image.sha256, "the blob of \(image.id)") }
        #expect(await desk.earlyBlob(key, of: UUID()) == nil)
        #expect(await !desk.isOpen(key), "opened by a look at the kept list")
        // Open, the document answers: its pieces carry the same token while it is the file's.
        let reopened = try await desk.document(key, for: "page")
        #expect(try await desk.earlyImages(key, from: 0, count: 1) == nil, "an early piece of an open document")
        #expect(try await desk.images(key, from: 0, count: 1).token == token)
        try await reopened.setCaption("not the file's any more", of: images[0].id)
        #expect(try await desk.images(key, from: 0, count: 1).token == nil, "a token for an edited list")
        try await reopened.undo()
        #expect(try await desk.images(key, from: 0, count: 1).token == token, "undone to the file's list")
        await desk.closeAll().forEach { Issue.record("\($0)") }

        // A file written since keeps the list of no other revision.
        try GalleryFileSystem.writeWhole(try GalleryFileSystem.contents(of: path), to: path)
        #expect(try await desk.earlyImages(key, from: 0, count: 1) == nil, "a list given for a file written since it was kept")
    }

    @Test func aDamagedListIsNoList() throws {
        let identity = try FileIdentity.of(path: path)
        let images = try GalleryReader(path: path.string).gallery.images
        let bytes = try #require(FirstLooks.encodeList(images, identity: identity))
        let list = try #require(FirstLooks.decodeList(bytes, identity: identity))
        #expect(Array(list.json) == DocumentView.imagesJSON(images) && list.total == images.count)
        #expect(images.allSatisfy { list.blob(of: $0.id) == $0.sha256 } && list.blob(of: UUID()) == nil)
        // Every byte matters: the magic, the identity, the counts, the digest, the places and the list.
        let length = DocumentView.imagesJSON(images).count
        for at in [0, 7, 8, 63, 64, 68, 72, 103, 104, 107, 104 + length, bytes.count - 49, bytes.count - 1] {
            var damaged = bytes
            damaged[at] ^= 0x01
            #expect(FirstLooks.decodeList(damaged, identity: identity) == nil, "byte \(at) changed")
        }
        #expect(FirstLooks.decodeList(Array(bytes.dropLast()), identity: identity) == nil, "cut short")
        #expect(FirstLooks.decodeList(bytes + [0], identity: identity) == nil, "a byte too many")
        // Whole by its digest but cut where no object begins: the digest made again over it.
        var misplaced = bytes
        misplaced[104 + length + 4] &+= 1
        misplaced.replaceSubrange(72 ..< 104, with: FirstLooks.digest(misplaced[104...]))
        #expect(FirstLooks.decodeList(misplaced, identity: identity) == nil, "a place inside an object")
        // The same for two blob records out of order, which the search could pass over.
        var unordered = bytes
        let records = bytes.count - images.count * FirstLooks.blobRecordSize
        let (first, second) = (records ..< records + 48, records + 48 ..< records + 96)
        unordered.replaceSubrange(first, with: bytes[second])
        unordered.replaceSubrange(second, with: bytes[first])
        unordered.replaceSubrange(72 ..< 104, with: FirstLooks.digest(unordered[104...]))
        #expect(FirstLooks.decodeList(unordered, identity: identity) == nil, "the ids out of order")
    }

    @Test func aLaunchWithAKeptLookLeavesTheOpenToThePage() async throws {
        _ = try await desk.document(key, for: "page")
        _ = try await lookKept()
        await desk.closeAll().forEach { Issue.record("\($0)") }
        // The page draws the kept look; an open at launch would only compete with that.
        await desk.openAtLaunch(key, grace: .seconds(30))
        #expect(await !desk.isOpen(key), "opened at launch although a look is kept")
        #expect(try await desk.earlyLook(key, first: 2) != nil)
        // A photo the thumbnail cache lacks, asked for before the page asks for its document,
        // opens the document rather than failing.
        let document = try await desk.openDocument(key)
        #expect(await desk.isOpen(key) && GalleryFileSystem.fileName(of: document.path) == "all.imagegallery")
        await desk.closeAll().forEach { Issue.record("\($0)") }
    }

    @Test func aSaveKeepsTheLookOfTheFileItWrote() async throws {
        let document = try await desk.document(key, for: "page")
        let before = try await lookKept()
        let first = try await document.gallery.images[0].id
        try await document.setCaption("kept for the next open", of: first)
        _ = try await document.save()
        let after = try await lookKept { $0 != before }
        #expect(String(decoding: after.view, as: UTF8.self).contains("kept for the next open"))
        #expect(!String(decoding: before.view, as: UTF8.self).contains("kept for the next open"))
        await desk.closeAll().forEach { Issue.record("\($0)") }
        #expect(try await desk.earlyLook(key, first: 2) == after.view)
    }

    @Test func aSaveKeepsItsLookAtOnceAndAnOpenOnlyOnceThePageHasDrawn() async throws {
        // A settle no test waits out: what is kept within it is kept at once.
        let patient = FirstLooks(folder: looks.folder, count: 2, settle: .seconds(3600))
        let desk = DocumentDesk(library: GalleryLibrary(roots: try EditorRoots(paths: [folder.path])), events: EditorEvents(),
                                options: DocumentOptions(), looks: patient)
        let document = try await desk.document(key, for: "page")
        try await Task.sleep(for: .milliseconds(300))
        #expect(patient.look(key: key, path: path) == nil, "kept while the page that opened the gallery draws")
        try await document.setCaption("saved, then the editor closed", of: try await document.gallery.images[0].id)
        _ = try await document.save()
        // An editor closed straight after its last save still leaves the look of that file.
        let look = try await lookKept()
        #expect(String(decoding: look.view, as: UTF8.self).contains("saved, then the editor closed"))
        await desk.closeAll().forEach { Issue.record("\($0)") }
    }

    @Test func theFolderKeepsTheGalleriesUsedMostRecentlyWithinItsBound() async throws {
        try GalleryFileSystem.makeFolders(looks.folder)
        // Five other galleries' looks and lists, 1 KB each, used one a minute apart, the oldest first.
        let others = ["a", "b", "c", "d", "e"].map { String(repeating: $0, count: 24) }
        for (index, other) in others.enumerated() {
            for suffix in ["look", "list"] {
                let file = looks.folder.appending("\(other)-2.\(suffix)")
                try GalleryFileSystem.writeWhole([UInt8](repeating: 0, count: 1000), to: file)
                try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: Double(index - 10) * 60)],
                                                      ofItemAtPath: file.string)
            }
        }
        // A bound of three of them: the two used least recently go, whole, and the one kept now stays.
        looks.prune(keeping: others[0], capacity: 6000)
        let left = Set(try GalleryFileSystem.entries(ofFolder: looks.folder))
        let expected = Set([others[0], others[3], others[4]].flatMap { ["\($0)-2.look", "\($0)-2.list"] })
        #expect(left == expected, "left \(left.sorted())")
        // A look given out is a use: it renews the gallery's place.
        _ = try await desk.document(key, for: "page")
        _ = try await lookKept()
        await desk.closeAll().forEach { Issue.record("\($0)") }
        let file = try #require(looks.file(for: key))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -86400)], ofItemAtPath: file.string)
        _ = try #require(try await desk.earlyLook(key, first: 2))
        let used = try FileManager.default.attributesOfItem(atPath: file.string)[.modificationDate] as? Date
        #expect(used.map { $0.timeIntervalSinceNow > -60 } == true, "the look's time after it was given: \(String(describing: used))")
    }

    @Test func aFileChangedSinceGetsNoLook() async throws {
        _ = try await desk.document(key, for: "page")
        _ = try await lookKept()
        await desk.closeAll().forEach { Issue.record("\($0)") }
        #expect(try await desk.earlyLook(key, first: 2) != nil)
        // The same bytes written again: another inode and ctime, which could hold anything.
        try GalleryFileSystem.writeWhole(try GalleryFileSystem.contents(of: path), to: path)
        #expect(try await desk.earlyLook(key, first: 2) == nil, "a look given for a file written since it was kept")
        // A gallery of no more images than the look names whole keeps none: it comes whole anyway.
        let small = FirstLooks(folder: looks.folder, count: 10)
        let gallery = try GalleryReader(path: path.string).gallery
        small.store(gallery, key: key, fileName: "all.imagegallery", identity: try FileIdentity.of(path: path))
        #expect(small.look(key: key, path: path) == nil)
    }

    @Test func aDamagedLookIsNoLook() throws {
        let identity = try FileIdentity.of(path: path)
        let view = Array(#"{"early":true,"images":[]}"#.utf8)
        let blobs = [(UUID(), SHA256Hasher.of([1])), (UUID(), SHA256Hasher.of([2]))]
        let bytes = try #require(FirstLooks.encode(view, blobs: blobs, identity: identity, first: 2))
        let look = try #require(FirstLooks.decode(bytes, identity: identity, first: 2))
        #expect(look.view == view && look.blobs == Dictionary(uniqueKeysWithValues: blobs))
        #expect(FirstLooks.decode(bytes, identity: identity, first: 3) == nil, "another size")
        // Every byte matters: the magic, the identity, the counts, the digest and the body.
        for at in [0, 7, 8, 20, 63, 64, 68, 72, 76, 107, 108, bytes.count - 1] {
            var damaged = bytes
            damaged[at] ^= 0x01
            #expect(FirstLooks.decode(damaged, identity: identity, first: 2) == nil, "byte \(at) changed")
        }
        #expect(FirstLooks.decode(Array(bytes.dropLast()), identity: identity, first: 2) == nil, "cut short")
        #expect(FirstLooks.decode(bytes + [0], identity: identity, first: 2) == nil, "a byte too many")
        #expect(FirstLooks.decode(Array(bytes.prefix(40)), identity: identity, first: 2) == nil, "half a header")
        #expect(FirstLooks.encode(view, blobs: blobs + [(UUID(), SHA256Hasher.of([3]))], identity: identity, first: 2) == nil,
                "more blobs than images named whole")

        // A key that is not the desk's kind names no file; a cache file too large is not read.
        for key in ["", "../looks", "ABC", String(repeating: "a", count: 65)] { #expect(looks.file(for: key) == nil, "\(key)") }
        try GalleryFileSystem.makeFolders(looks.folder)
        let file = try #require(looks.file(for: key))
        try GalleryFileSystem.writeWhole(bytes, to: file)
        #expect(looks.look(key: key, path: path) == look)
        try GalleryFileSystem.writeWhole(bytes + [UInt8](repeating: 0, count: FirstLooks.largestView + 200), to: file)
        #expect(looks.look(key: key, path: path) == nil)
    }
}
