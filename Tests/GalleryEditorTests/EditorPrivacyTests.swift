import Foundation
import GalleryDocument
import GalleryFormat
import GallerySystem
import GalleryTestSupport
import SystemPackage
import Testing
@testable import GalleryEditor

/// The editor's privacy (issue 32) below the page: what the photos carry, read from their bytes
/// whether the file holds them yet or not; the strip edit and what it reports; shared copies,
/// written beside the gallery under free names, whole or not at all. On the privacy fixtures
/// (Fixtures/invalid/privacy): a photo with EXIF GPS, one with identity fields, one whose EXIF
/// does not read.
@Suite struct EditorPrivacyTests {
    let folder: TemporaryDirectory
    let options: DocumentOptions

    init() throws {
        folder = try TemporaryDirectory()
        var options = DocumentOptions()
        options.autosaves = false
        options.durable = false
        options.versionStore = VersionStore(root: FilePath(folder.file("versions")))
        self.options = options
    }

    static func fixture(_ name: String) -> String { TestPaths.fixture("invalid/privacy/\(name).imagegallery") }

    /// The bytes of the first image of a gallery file.
    static func firstImage(of path: String) throws -> [UInt8] {
        let reader = try GalleryReader(path: path)
        var bytes: [UInt8] = []
        try reader.readBlob(reader.gallery.images[0]) { bytes += $0 }
        return bytes
    }

    /// The GPS fixture open for editing, as "Trip.imagegallery", with the identity fixture's photo
    /// and a plain one added after it (not saved: the document holds their bytes).
    func trip() async throws -> (GalleryDocument, String) {
        let path = try folder.copy(Self.fixture("IG-PRV-001-gps-position"), as: "Trip.imagegallery")
        let document = GalleryDocument(path: path, options: options)
        try await document.open()
        try await document.insertImage(data: try Self.firstImage(of: Self.fixture("IG-PRV-002-serial-number-and-artist")),
                                       filename: "identity.jpg")
        try await document.insertImage(data: try GalleryFileSystem.contents(of: FilePath(TestPaths.fixture("images/3-lighthouse.jpg"))),
                                       filename: "lighthouse.jpg")
        return (document, path)
    }

    func report(_ document: GalleryDocument, _ cache: ImagePrivacyCache = ImagePrivacyCache()) async throws -> PrivacyReport {
        let found = try await cache.privacy(of: document)
        return PrivacyReport(gallery: found.gallery, privacy: found.privacy)
    }

    @Test func theReportReadsSavedAndUnsavedPhotosAndListsOnlyThoseThatCarrySomething() async throws {
        let (document, _) = try await trip()
        let cache = ImagePrivacyCache()
        let ids = try await document.gallery.images.map(\.id.manifestString)
        for round in ["before the save", "after the save"] {
            let report = try await report(document, cache)
            #expect(report.summary == "1 of 3 photos carries a location; 1 carries identity fields", "\(round)")
            #expect(report.imageCount == 3 && report.withLocation == 1 && report.withIdentity == 1 && report.unreadable == 0)
            #expect(Set(report.images.keys) == Set(ids.prefix(2)), "\(round): only the photos that carry something")
            #expect(report.images[ids[0]]?.location == ["EXIF GPS"] && report.images[ids[0]]?.identity == [])
            #expect(report.images[ids[1]]?.identity.contains("EXIF Artist") == true)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json)) as? [String: Any])
            #expect(json["summary"] as? String == report.summary)
            _ = try await document.save()
        }
        _ = try await document.close()
    }

    /// The cache keeps what it read of a photo after the photo leaves the gallery (an undo may
    /// bring it back), and hands its entries out shared: the report counts the gallery's photos
    /// only.
    @Test func aRemovedPhotoLeavesTheReportThoughTheCacheKeepsIt() async throws {
        let (document, _) = try await trip()
        let cache = ImagePrivacyCache()
        #expect(try await report(document, cache).withLocation == 1)
        let located = try await document.gallery.images[0].id
        try await document.removeImages([located])
        let report = try await report(document, cache)
        #expect(report.imageCount == 2 && report.withLocation == 0 && report.withIdentity == 1)
        #expect(report.summary == "0 of 2 photos carry a location; 1 carries identity fields")
        _ = try await document.close()
    }

    @Test func summariesSayItInWords() {
        #expect(PrivacyReport.summary(total: 0, location: 0, identity: 0, unreadable: 0) == "")
        #expect(PrivacyReport.summary(total: 1, location: 0, identity: 0, unreadable: 0) == "The photo carries no location or identity fields")
        #expect(PrivacyReport.summary(total: 3, location: 0, identity: 0, unreadable: 1)
                == "None of the 3 photos carries a location or identity fields; 1 could not be read in full")
        #expect(PrivacyReport.summary(total: 12, location: 3, identity: 2, unreadable: 0)
                == "3 of 12 photos carry a location; 2 carry identity fields")
    }

    @Test func aPhotoWhoseMetadataDoesNotReadIsReportedSo() async throws {
        let path = try folder.copy(Self.fixture("IG-PRV-003-exif-directory-outside"))
        let document = GalleryDocument(path: path, options: options)
        try await document.open()
        let report = try await report(document)
        #expect(report.unreadable == 1 && report.withLocation == 0)
        #expect(report.images.values.first?.problems?.first?.contains("outside") == true)
        _ = try await document.close()
    }

    /// The strip is one edit: Undo brings the location back; the reply says what went.
    @Test func theStripEditSaysWhatWentAndUndoTakesItBack() async throws {
        let (document, _) = try await trip()
        let outcome = try await EditorRoutes.apply(.init(op: .strip, scope: "location"), to: document)
        let removed = try #require(outcome.metadataRemoved)
        #expect(removed.scope == "location" && removed.imageCount == 3 && removed.left.isEmpty)
        #expect(removed.changed.map(\.position) == [1] && removed.changed.first?.removed == ["EXIF GPS"])
        #expect(try await report(document).withLocation == 0)
        #expect(try await report(document).withIdentity == 1, "identity is another scope")
        _ = try await EditorRoutes.apply(.init(op: .undo), to: document)
        #expect(try await report(document).withLocation == 1)
        _ = try await EditorRoutes.apply(.init(op: .strip, scope: "identity"), to: document)
        let stripped = try await report(document)
        #expect(stripped.withLocation == 0 && stripped.withIdentity == 0)
        _ = try await document.close()
    }

    /// The page is not trusted: only the scope words `strip` takes, and a strip of nothing is refused.
    @Test func aStripNamesAKnownScope() async throws {
        let (document, _) = try await trip()
        let changes = await document.changeCount
        for scope in [nil, "gps", "Location", " location", ""] {
            await #expect(throws: EditorError.self, "\(scope ?? "no scope")") {
                _ = try await EditorRoutes.apply(.init(op: .strip, scope: scope), to: document)
            }
        }
        await #expect(throws: EditorError.self) { _ = try await EditorRoutes.apply(.init(op: .strip, scope: "none"), to: document) }
        #expect(await document.changeCount == changes, "a refused strip is no edit")
        let named = try await EditorRoutes.apply(.init(op: .strip, scope: "none", names: true), to: document)
        #expect(named.metadataRemoved?.renamed == 3 && named.metadataRemoved?.scope == "nothing")
        #expect(try await document.gallery.images.map(\.filename) == ["001.jpg", "002.jpg", "003.jpg"])
        _ = try await document.close()
    }

    /// The reply to a strip carries the removal, in the view's byte order of keys.
    @Test func theViewCarriesTheRemoval() async throws {
        let (document, _) = try await trip()
        let outcome = try await EditorRoutes.apply(.init(op: .strip, scope: "all"), to: document)
        var view = try await DocumentView(key: "k", document: document, saving: false)
        view.message = "m"
        view.metadataRemoved = outcome.metadataRemoved
        let text = String(decoding: view.json, as: UTF8.self)
        let keys = ["\"message\"", "\"metadataRemoved\"", "\"saving\""].map { text.range(of: $0)?.lowerBound }
        #expect(keys.allSatisfy { $0 != nil } && keys[0]! < keys[1]! && keys[1]! < keys[2]!, "\(text)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(view.json)) as? [String: Any])
        let removed = try #require(json["metadataRemoved"] as? [String: Any])
        #expect(removed["scope"] as? String == "all metadata")
        let changed = try #require(removed["changed"] as? [[String: Any]])
        #expect((changed.first?["removed"] as? [String])?.contains("all other metadata") == true)
        _ = try await document.close()
    }
}
