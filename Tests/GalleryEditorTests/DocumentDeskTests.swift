import GalleryDocument
import GalleryFormat
import GallerySystem
import Foundation
import GalleryTestSupport
import SystemPackage
import Synchronization
import Testing
@testable import GalleryEditor

/// The desk keeps one document per gallery file, whatever order a page's requests arrive in: a
/// second `GalleryDocument` of the file would find the first one's lock and open for reading only.
@Suite struct DocumentDeskTests {
    let folder: TemporaryDirectory
    let library: GalleryLibrary
    let desk: DocumentDesk
    let path: String
    let key: String

    init() throws {
        folder = try TemporaryDirectory()
        path = try folder.copy(TestPaths.fixture("valid/all.imagegallery"))
        library = GalleryLibrary(roots: try EditorRoots(paths: [folder.path]))
        desk = DocumentDesk(library: library, events: EditorEvents(), options: DocumentOptions())
        key = GalleryLibrary.key(of: try GalleryFileSystem.resolvedPath(FilePath(path)).string)
    }

    /// Requests that arrive together (a page's view, its events and its thumbnails) share one
    /// document, and that document holds the lock.
    @Test func requestsArrivingTogetherShareOneEditableDocument() async throws {
        let (desk, key) = (desk, key)
        let documents = try await withThrowingTaskGroup(of: GalleryDocument.self) { group in
            for page in 0 ..< 16 {
                group.addTask { try await desk.document(key, for: "page-\(page % 4)") }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(documents.map { ObjectIdentifier($0) }).count == 1)
        #expect(await documents[0].readOnlyReason == nil)
        await desk.closeAll().forEach { Issue.record("\($0)") }
    }

    /// The gallery the editor was started for is open before its page asks, and the page gets
    /// that document; the launch's grace ending does not close what a page holds.
    @Test func theLaunchGalleryIsOpenBeforeItsPageAsks() async throws {
        await desk.openAtLaunch(key, grace: .milliseconds(200))
        #expect(await desk.isOpen(key))
        let opened = try await desk.openDocument(key)
        let paged = try await desk.document(key, for: "page")
        #expect(opened === paged)
        try await Task.sleep(for: .milliseconds(600))
        #expect(await desk.isOpen(key), "the launch's grace closed a document a page holds")
        await desk.pageClosed("page")
        #expect(await !desk.isOpen(key))
    }

    /// With no page to take it, the launch's document closes after the grace, lock and all.
    @Test func theLaunchGalleryClosesWhenNoPageTakesIt() async throws {
        await desk.openAtLaunch(key, grace: .milliseconds(100))
        #expect(await desk.isOpen(key))
        var open = true
        for _ in 0 ..< 400 where open {
            try await Task.sleep(for: .milliseconds(50))
            open = await desk.isOpen(key)
        }
        #expect(!open, "the launch's document stayed open with no page")
        #expect(await desk.closeAll().isEmpty)
    }

    /// A page that opened with a first look fills its list in pieces: together they are the
    /// list, each says the version of the whole view's list, and a change makes a new version.
    @Test func thePiecesOfTheListAreTheListAndSayItsVersion() async throws {
        let document = try await desk.document(key, for: "page")
        let images = try await document.gallery.images
        let version = try await desk.view(key).imagesVersion
        var pieced: [GalleryImage] = []
        for from in stride(from: 0, to: images.count + 2, by: 2) {
            let piece = try await desk.images(key, from: from, count: 2)
            #expect(piece.total == images.count && piece.version == version && piece.images.startIndex == min(from, images.count))
            pieced += piece.images
        }
        #expect(pieced == images)
        try await document.setCaption("changed", of: images[0].id)
        let changed = try await desk.images(key, from: 0, count: 1)
        #expect(changed.version != version && changed.images.first?.caption == "changed")
        #expect(try await desk.view(key).imagesVersion == changed.version)
        await desk.closeAll().forEach { Issue.record("\($0)") }
    }

    /// The document browser's listing takes an open gallery's title and count from its document,
    /// which holds the file open already, after the open and after each save: reading the file
    /// again is a whole manifest (37 MB at 100,000 images) for two values.
    @Test func theListingOfAnOpenGalleryReadsNoFileAfterAnOpenOrASave() async throws {
        // One save only: on a loaded machine the explicit save can outlast the autosave's idle
        // delay, and a second save, between its swap and the desk hearing of it, shows the
        // listing a file it does not know yet.
        var options = DocumentOptions()
        options.autosaves = false
        let desk = DocumentDesk(library: library, events: EditorEvents(), options: options)
        let document = try await desk.document(key, for: "page")
        let count = try await document.gallery.images.count
        var listed = await library.galleries()
        #expect(listed.map(\.imageCount) == [count] && listed.first?.problem == nil)
        #expect(await library.filesRead == 0, "the listing after the open read the file")

        try await document.setTitle("Renamed here")
        try await document.save()
        // The desk hears of the save on a task of its own: until then the listing would see a
        // file it does not know, and read it.
        // It is heard when the library holds the title under the file's identity as it is now.
        var heard = false
        for _ in 0 ..< 6000 where !heard {
            let status = try FileStatus.of(FilePath(path), followingLinks: true)
            let now = [status.size, status.modifiedNanoseconds, Int64(bitPattern: status.inode)]
            heard = await library.cache.values.contains { $0.summary.title == "Renamed here" && $0.fingerprint == now }
            if !heard { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(heard, "the desk never told the library of the save")
        // Counted around this listing only: the desk lists galleries itself when it publishes,
        // and one of its listings may fall between the save's swap and its telling the library.
        let readBefore = await library.filesRead
        listed = await library.galleries()
        #expect(listed.map(\.title) == ["Renamed here"] && listed.map(\.imageCount) == [count])
        #expect(listed.first?.byteSize == Int64(try FileIdentity.of(path: FilePath(path)).size))
        #expect(await library.filesRead == readBefore, "the listing after the save read the file")

        // A file another program wrote is read as before.
        try GalleryFileSystem.replace(FilePath(path), with: FilePath(try folder.copy(TestPaths.fixture("valid/all.imagegallery"), as: "other.tmp")))
        listed = await library.galleries()
        let filesRead = await library.filesRead
        #expect(listed.first?.title != "Renamed here" && filesRead == readBefore + 1)
        await desk.closeAll().forEach { Issue.record("\($0)") }
    }

    /// While an open document saves its file, a listing (the folder's watch fires 150 ms after
    /// the swap) shows what it knew of the file and reads nothing: the save tells the library
    /// what it wrote. A file changed while no save holds it is read as before.
    @Test func aListingDuringASaveReadsNoFile() async throws {
        var listed = await library.galleries()
        #expect(await library.filesRead == 1)
        await library.setSaving(key, true)
        try GalleryFileSystem.replace(FilePath(path), with: FilePath(try folder.copy(TestPaths.fixture("valid/all.imagegallery"), as: "saved.tmp")))
        listed = await library.galleries()
        #expect(await library.filesRead == 1, "the listing read a file an open document was saving")
        #expect(listed.map(\.key) == [key] && listed.first?.problem == nil)
        await library.setSaving(key, false)
        listed = await library.galleries()
        #expect(await library.filesRead == 2, "the file changed with no save holding it, and was not read")
    }

    /// The desk marks the gallery as being saved from the save's start until it has told the
    /// library what the save wrote.
    @Test func theDeskHoldsTheListingFromASavesStartToItsEnd() async throws {
        let (library, key) = (library, key)
        let heldWhileWriting = Mutex(false)
        var options = DocumentOptions()
        options.autosaves = false
        options.afterWriting = {
            // The desk hears of the save's start on a task of its own.
            for _ in 0 ..< 400 where !(await library.isBeingSaved(key)) { try await Task.sleep(for: .milliseconds(25)) }
            let held = await library.isBeingSaved(key)
            heldWhileWriting.withLock { $0 = held }
        }
        let desk = DocumentDesk(library: library, events: EditorEvents(), options: options)
        let document = try await desk.document(key, for: "page")
        try await document.setTitle("Saved here")
        try await document.save()
        #expect(heldWhileWriting.withLock { $0 }, "no hold while the save wrote")
        var released = false
        for _ in 0 ..< 400 where !released {
            released = !(await library.isBeingSaved(key))
            if !released { try await Task.sleep(for: .milliseconds(25)) }
        }
        #expect(released, "the hold outlived the save")
        let readBefore = await library.filesRead
        #expect(await library.galleries().map(\.title) == ["Saved here"])
        #expect(await library.filesRead == readBefore)
        await desk.closeAll().forEach { Issue.record("\($0)") }
    }

    /// A page that opens the gallery while the last page's document is still closing gets a new
    /// document once the old one has let its lock go, never the closing one or a read-only one.
    @Test func anOpenDuringACloseWaitsForItAndGetsAnEditableDocument() async throws {
        let (desk, key) = (desk, key)
        for round in 0 ..< 8 {
            let first = try await desk.document(key, for: "old-\(round)")
            #expect(await first.readOnlyReason == nil)
            async let closed: Void = desk.pageClosed("old-\(round)")
            async let reopened = desk.document(key, for: "new-\(round)")
            let (_, second) = try await (closed, reopened)
            #expect(await second.state != .closed, "round \(round): the page got the document that was closing")
            let reason = await second.readOnlyReason
            #expect(reason == nil, "round \(round): read only, \(reason ?? "")")
            await desk.pageClosed("new-\(round)")
        }
        await desk.closeAll().forEach { Issue.record("\($0)") }
    }

    /// A gallery closed while its folder cannot be written lets its lock go all the same, though
    /// its lock file stays: the next page gets an editable document, not "… is editing this
    /// gallery" naming the editor itself.
    @Test func aGalleryClosedInAReadOnlyFolderOpensEditableAgain() async throws {
        let first = try await desk.document(key, for: "before")
        #expect(await first.readOnlyReason == nil)
        try Self.setWritable(folder.path, false)
        defer { try? Self.setWritable(folder.path, true) }
        await desk.pageClosed("before")
        try Self.setWritable(folder.path, true)
        #expect(await first.state == .closed)
        // What makes the case: the closed document could not remove its lock file.
        #expect(FileManager.default.fileExists(atPath: DocumentLock.lockPath(for: try GalleryFileSystem.resolvedPath(FilePath(path)).string).string))
        let again = try await desk.document(key, for: "after")
        let reason = await again.readOnlyReason
        #expect(reason == nil, "read only: \(reason ?? "")")
        await desk.closeAll().forEach { Issue.record("\($0)") }
    }

    /// A folder nobody may write, root included: `chattr +i` as root (root ignores modes), else mode 0555.
    static func setWritable(_ folder: String, _ writable: Bool) throws {
        if geteuid() == 0 {
            let chattr = Process()
            chattr.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
            chattr.arguments = [writable ? "-i" : "+i", folder]
            try chattr.run()
            chattr.waitUntilExit()
            guard chattr.terminationStatus == 0 else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: folder])
            }
        } else {
            try FileManager.default.setAttributes([.posixPermissions: writable ? 0o755 : 0o555], ofItemAtPath: folder)
        }
    }
}

/// The view the page reads is written by the format's JSON writer, not `JSONEncoder`: both must
/// say the same, whatever the titles and captions hold.
@Suite struct DocumentViewTests {
    @Test func theWrittenViewReadsAsTheEncodedOne() async throws {
        let folder = try TemporaryDirectory()
        let path = try folder.copy(TestPaths.fixture("valid/all.imagegallery"))
        let document = GalleryDocument(path: path)
        try await document.open()
        let hostile = ["<img src=x onerror=alert(1)>", "line\nbreak \"quoted\" back\\slash \u{0}\u{1F}",
                       "\u{202E}gnp.evil \u{1F600} é", String(repeating: "x", count: 10_000)]
        try await document.setTitle(hostile[0])
        for (image, caption) in zip(try await document.gallery.images, hostile) {
            try await document.setCaption(caption, of: image.id)
        }
        var view = try await DocumentView(key: "k", document: document, saving: true)
        view.mergeConflicts = ["kept \"ours\"\n"]
        let written = try JSONSerialization.jsonObject(with: Data(view.json)) as? NSDictionary
        let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(view)) as? NSDictionary
        #expect(written != nil && written == encoded)
        #expect(!view.json.contains(0x0A), "a line break would end the server-sent event")
        view.mergeConflicts = nil
        view.message = nil
        let bare = try JSONSerialization.jsonObject(with: Data(view.json)) as? [String: Any]
        #expect(bare?["mergeConflicts"] == nil && bare?["message"] == nil)
        _ = try await document.close()
    }

    /// A first look names its first images as the whole view does, and the rest by their sizes,
    /// in order; it claims no list version (events name lists by it). Asked for as many images as
    /// the gallery has or more, it is the whole view.
    @Test func aFirstLookIsTheWholeViewsFirstImagesAndTheSizesOfTheRest() async throws {
        let folder = try TemporaryDirectory()
        let document = GalleryDocument(path: try folder.copy(TestPaths.fixture("valid/all.imagegallery")))
        try await document.open()
        try await document.setCaption("first \"one\"", of: try await document.gallery.images[0].id)
        var view = try await DocumentView(key: "k", document: document, saving: false)
        view.imagesVersion = 7
        let images = try await document.gallery.images
        #expect(images.count >= 3, "the fixture has too few images to look at the first of them")
        let whole = try #require(try JSONSerialization.jsonObject(with: Data(view.json)) as? [String: Any])
        let wholeImages = try #require(whole["images"] as? [NSDictionary])
        for first in 1 ..< images.count {
            let look = try #require(try JSONSerialization.jsonObject(with: Data(view.windowed(first: first).json)) as? [String: Any])
            #expect((look["images"] as? [NSDictionary]) == Array(wholeImages.prefix(first)), "first \(first)")
            #expect(look["imageCount"] as? Int == images.count)
            #expect(look["laterSizes"] as? [Int] == images.dropFirst(first).flatMap { [$0.width, $0.height] })
            #expect(look["imagesVersion"] as? Int == 0)
            #expect(look["title"] as? String == whole["title"] as? String && look["key"] as? String == "k")
        }
        for first in [images.count, images.count + 1] {
            #expect(view.windowed(first: first).json == view.json, "first \(first)")
        }
        _ = try await document.close()
    }
}
