import Foundation
@testable import GalleryDocument
import GalleryTestSupport
import SystemPackage
import Testing

/// The version store's records, apart from any document.
@Suite("Version store")
struct VersionStoreTests {
    /// Two file names that differ only in Unicode normalisation are two files to the kernel
    /// (and to ext4), though Swift's `==` takes them for one String: each keeps its own versions.
    @Test func versionsBelongToTheFileNamedByItsBytes() throws {
        let directory = try TemporaryDirectory()
        let store = VersionStore(root: FilePath(directory.file("versions")))
        let composed = directory.file("caf\u{E9}.imagegallery")
        let decomposed = directory.file("cafe\u{301}.imagegallery")
        #expect(composed == decomposed, "Swift's String equality is canonical equivalence")
        #expect(Array(composed.utf8) != Array(decomposed.utf8))
        let documentID = UUID()
        try store.record(DocumentVersion(
            id: UUID(), documentID: documentID, documentPath: composed, origin: .ours, revision: UUID(), parentRevisions: [],
            time: Date(timeIntervalSince1970: 1_700_000_000), host: "host", isResolved: false,
            file: directory.file("v.imagegallery"), title: "Trip", imageCount: 0))
        #expect(store.versions(documentID: documentID, documentPath: composed).count == 1)
        #expect(store.versions(documentID: documentID, documentPath: decomposed).isEmpty)
    }

    /// A version's bytes are removed with it only when they are inside the document's folder of
    /// the store, judged by path components: a file whose name merely starts with that folder's
    /// text is someone else's.
    @Test func removingAVersionLeavesBytesOutsideItsFolder() throws {
        let directory = try TemporaryDirectory()
        let store = VersionStore(root: FilePath(directory.file("versions")))
        let documentID = UUID()
        let beside = store.folder(for: documentID).string + "-beside.imagegallery"
        try FileManager.default.createDirectory(atPath: directory.file("versions"), withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: beside))
        let version = DocumentVersion(
            id: UUID(), documentID: documentID, documentPath: directory.file("a.imagegallery"), origin: .theirs, revision: UUID(),
            parentRevisions: [], time: Date(timeIntervalSince1970: 1_700_000_000), host: "host", isResolved: true,
            file: beside, title: "Trip", imageCount: 0)
        try store.record(version)
        store.remove(version)
        #expect(FileManager.default.fileExists(atPath: beside), "a file beside the store's folder was removed with a version")
        #expect(store.versions(documentID: documentID, documentPath: directory.file("a.imagegallery")).isEmpty)
    }
}
