import Foundation
import GalleryDocument
import GalleryFormat
import GalleryMetadata
import GallerySystem
import GalleryTestSupport
import SystemPackage
import Testing
@testable import GalleryEditor

/// "Share a copy…" below the page: a gallery file or a web gallery beside the gallery, under the
/// next free name, never over anything, without what the user chose to remove, and nothing at
/// all when a photo cannot be stripped. The copies are read back with the format's reader and
/// the editor's own privacy reading (exiftool judges them in Tests/Browser/check-editor-privacy.py).
@Suite struct GalleryShareTests {
    let folder: TemporaryDirectory
    let options: DocumentOptions

    init() throws {
        folder = try TemporaryDirectory()
        var options = DocumentOptions()
        options.durable = false
        options.versionStore = VersionStore(root: FilePath(folder.file("versions")))
        self.options = options
    }

    func names() throws -> [String] {
        try GalleryFileSystem.entries(ofFolder: FilePath(folder.path)).filter { $0 != "versions" }.sorted()
    }

    /// What each image of the gallery file at `path` carries, read from its bytes.
    static func carried(_ path: String) throws -> [(location: [String], identity: [String])] {
        let reader = try GalleryReader(path: path)
        let read = ImagePrivacyCache.read(Set(reader.gallery.images.map(\.sha256)), from: reader)
        return reader.gallery.images.map { (read[$0.sha256]?.location ?? ["unread"], read[$0.sha256]?.identity ?? ["unread"]) }
    }

    @Test func aSharedGalleryIsANewFileBesideItWithoutTheLocation() async throws {
        let path = try folder.copy(EditorPrivacyTests.fixture("IG-PRV-001-gps-position"), as: "Trip.imagegallery")
        let original = try GalleryFileSystem.contents(of: FilePath(path))
        let first = try await GalleryShare.galleryCopy(of: path, scope: try EditorRoutes.metadataScope("location"), options: options)
        #expect(first.form == .gallery && first.name == "Trip (shared).imagegallery" && first.folder == folder.path)
        #expect(first.removed.scope == "location" && first.removed.changed.first?.removed == ["EXIF GPS"])
        #expect(try Self.carried(first.path).map(\.location) == [[]])
        #expect(try Self.carried(path).map(\.location) == [["EXIF GPS"]], "the original keeps its location")
        #expect(try GalleryFileSystem.contents(of: FilePath(path)) == original)
        let (copy, source) = (try GalleryReader(path: first.path).gallery, try GalleryReader(path: path).gallery)
        #expect(copy.id != source.id, "a copy of its own, not a version of the original")
        #expect(copy.title == source.title && copy.images.map(\.id) == source.images.map(\.id))

        // Never over anything: the next share takes the next name, and the first copy stays as it was.
        let firstBytes = try GalleryFileSystem.contents(of: FilePath(first.path))
        let second = try await GalleryShare.galleryCopy(of: path, scope: try EditorRoutes.metadataScope("none"), options: options)
        #expect(second.name == "Trip (shared 2).imagegallery" && second.removed.scope == "nothing")
        #expect(try Self.carried(second.path).map(\.location) == [["EXIF GPS"]], "\"none\" shares the photos as they are")
        #expect(try GalleryFileSystem.contents(of: FilePath(first.path)) == firstBytes)
        #expect(try names() == ["Trip (shared 2).imagegallery", "Trip (shared).imagegallery", "Trip.imagegallery"],
                "no hidden copy or lock is left behind")
    }

    /// A photo whose metadata cannot be rewritten would keep it in the copy: the share fails and
    /// leaves nothing, as the web gallery's writer refuses such a photo.
    @Test func aShareThatCannotStripEveryPhotoLeavesNothing() async throws {
        let path = try folder.copy(EditorPrivacyTests.fixture("IG-PRV-003-exif-directory-outside"), as: "Broken.imagegallery")
        await #expect(throws: EditorError.self) {
            _ = try await GalleryShare.galleryCopy(of: path, scope: try EditorRoutes.metadataScope("location"), options: options)
        }
        #expect(try names() == ["Broken.imagegallery"])
    }

    @Test func aWebGalleryGoesBesideTheGalleryUnderAFreeName() async throws {
        let path = try folder.copy(EditorPrivacyTests.fixture("IG-PRV-002-serial-number-and-artist"), as: "Trip.imagegallery")
        let document = GalleryDocument(path: path, options: options)
        try await document.open()
        let found = try await ImagePrivacyCache().privacy(of: document)
        _ = try await document.close()
        let scope = try EditorRoutes.metadataScope("identity")
        let first = try await GalleryShare.webCopy(of: path, scope: scope, gallery: found.gallery, privacy: found.privacy)
        #expect(first.form == .web && first.name == "Trip web")
        #expect(first.removed.changed.first?.removed?.contains("EXIF Artist") == true)
        let images = try GalleryFileSystem.entries(ofFolder: FilePath(first.path).appending("images"))
        #expect(images == ["001.jpg"])
        let published = try GalleryFileSystem.contents(of: FilePath(first.path).appending("images/001.jpg"))
        let privacy = ImageMetadata.privacy(of: published, type: .jpeg)
        #expect(privacy.identity.isEmpty && privacy.location.isEmpty, "\(privacy.identity)")
        let second = try await GalleryShare.webCopy(of: path, scope: scope, gallery: found.gallery, privacy: found.privacy)
        #expect(second.name == "Trip web 2")
    }
}
