import Foundation
@testable import GalleryDocument
import GalleryFormat
import GalleryTestSupport
import Testing

/// Conflict copies of sync clients: recognised by name, accepted only with the document's id.
@Suite("Sync-client conflict copies")
struct SyncConflictCopiesTests {
    @Test(arguments: [
        ("trip.sync-conflict-20261122-081502-ABCDEF7.imagegallery", SyncConflictCopies.Client.syncthing),
        ("trip (conflicted copy 2026-11-22 081502).imagegallery", .nextcloud),
        ("trip (conflicted copy jane 2026-11-22 081502).imagegallery", .nextcloud),
        ("trip (Jane's conflicted copy 2026-11-22).imagegallery", .dropbox),
        ("trip (conflicted copy 2026-11-22).imagegallery", .dropbox),
        ("trip (Jane's MacBook's conflicted copy 2026-11-22 (1)).imagegallery", .dropbox),
    ])
    func namesAreRecognised(name: String, client: SyncConflictCopies.Client) {
        #expect(SyncConflictCopies.client(of: name, forDocument: "trip.imagegallery") == client)
    }

    @Test(arguments: ["trip.imagegallery", "trips.sync-conflict-20261122-081502-ABCDEF7.imagegallery",
                      "trip.sync-conflict-2026112-081502-ABCDEF7.imagegallery", "trip (copy).imagegallery",
                      "trip (conflicted copy 2026-11-22 081502).zip", "other (conflicted copy 2026-11-22).imagegallery"])
    func lookalikesAreNot(name: String) {
        #expect(SyncConflictCopies.client(of: name, forDocument: "trip.imagegallery") == nil)
    }

    /// Real galleries beside the document: the copies with its id are found, a lookalike
    /// with another id is ignored.
    @Test func onlyCopiesOfTheSameDocumentAreOffered() throws {
        let directory = try TemporaryDirectory()
        let image = TestPaths.fixture("images/1-sunset.jpg")
        func create(_ name: String, id: String) throws {
            let result = try Subprocess.imagegallery(["create", directory.file(name), "--id", id, image])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let same = "2f1c0d8e-2b44-4c39-9c0e-3b1a7e5d2f10", other = "9a9a0d8e-2b44-4c39-9c0e-3b1a7e5d2f10"
        try create("trip.imagegallery", id: same)
        try create("trip.sync-conflict-20261122-081502-ABCDEF7.imagegallery", id: same)
        try create("trip (conflicted copy 2026-11-22 081502).imagegallery", id: same)
        try create("trip (Jane's conflicted copy 2026-11-22).imagegallery", id: other)
        let copies = try SyncConflictCopies.copies(of: directory.file("trip.imagegallery"))
        #expect(copies.map(\.client) == [.nextcloud, .syncthing])
    }
}
