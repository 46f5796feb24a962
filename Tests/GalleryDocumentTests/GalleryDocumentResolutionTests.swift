import Foundation
@testable import GalleryDocument
import GalleryFormat
import GalleryTestSupport
import Testing

/// The ways out of a conflict (replace, mark resolved, remove, merge) and sync clients'
/// conflict copies; the conflicts themselves are made as in GalleryDocumentConflictTests.
extension GalleryDocumentConflictTests {
    // MARK: (e) Resolution

    /// A conflict made by renaming their revision over the file: ours added `ours` (image A),
    /// theirs added image B.
    func conflicted() async throws -> (GalleryDocument, DocumentVersion, Start, GalleryImage) {
        let start = try await start()
        let document = try await open()
        let ours = try await document.insertImage(data: TestImage.png(seed: 3), filename: "ours.png")
        let staged = directory.file("elsewhere/staged.imagegallery")
        try Disk.run("/bin/cp", [start.theirs, staged])
        try Disk.run("/bin/mv", [staged, path])
        let result = try await document.save()
        let version = try #require(try await expectKeptAsVersion(
            result, document, theirsBytes: start.theirsBytes, documentID: start.documentID,
            holding: [start.base, ours], ours: (ours, TestImage.png(seed: 3)),
            theirs: { $0.images.map(\.id) == [start.base.id, start.theirsImage.id] }))
        return (document, version, start, ours)
    }

    @Test func replaceWithOurVersion() async throws {
        let (document, version, start, ours) = try await conflicted()
        try await document.replace(with: version)
        let disk = try DiskGallery.read(path)
        #expect(disk.id == start.documentID)
        #expect(disk.images.map(\.id) == [start.base.id, ours.id])
        let blobs = try DiskGallery.blobs(path)
        #expect(blobs[ours.id] == TestImage.png(seed: 3) && blobs[start.base.id] == TestImage.png(seed: 1))
        try DiskGallery.expectValid(path)
        #expect(await document.hasUnsavedChanges == false)
        #expect(try await document.otherVersions().contains { $0.id == version.id }, "the version stays until removed")

        try await document.markResolved(version)
        #expect(await document.state == .normal)
        try await document.close()
    }

    /// replace(with:) is undoable: undo returns to theirs, and that can be saved.
    @Test func undoingAReplaceCanBeSaved() async throws {
        let (document, version, start, _) = try await conflicted()
        try await document.replace(with: version)
        try await document.undo()
        #expect(try await document.gallery.images.map(\.id) == [start.base.id, start.theirsImage.id])
        do {
            #expect(try await document.save() != .unchanged)
        } catch {
            Issue.record("saving the undone replace failed: \(error)")
        }
        #expect(try DiskGallery.read(path).images.map(\.id) == [start.base.id, start.theirsImage.id])
        try DiskGallery.expectValid(path)
    }

    @Test func markResolvedSettlesTheConflictAndIsRemembered() async throws {
        let (document, version, start, _) = try await conflicted()
        try await document.markResolved(version)
        #expect(await document.state == .normal)
        #expect(try await document.unresolvedVersions().isEmpty)
        let kept = try await document.otherVersions().first { $0.id == version.id }
        #expect(kept?.isResolved == true)
        #expect(Disk.exists(version.file), "resolved is not removed")
        #expect(try FileBytes.read(path) == start.theirsBytes, "marking changes no document")
        try await document.close()

        let again = try await open()
        #expect(await again.state == .normal)
        #expect(try await again.unresolvedVersions().isEmpty)
        try await again.close()
    }

    @Test func removeOtherVersionsForgetsThemAll() async throws {
        let (document, version, start, _) = try await conflicted()
        try await document.removeOtherVersions()
        #expect(await document.state == .normal)
        #expect(try await document.otherVersions().isEmpty)
        #expect(!Disk.exists(version.file))
        let store = directory.versionStore.folder(for: start.documentID).string
        #expect(Disk.names(in: store).filter { $0.hasSuffix(".json") && !$0.hasSuffix(".base.json") }.isEmpty)
        #expect(Disk.names(in: store).filter { $0.hasSuffix(".imagegallery") }.isEmpty)
        #expect(try FileBytes.read(path) == start.theirsBytes)
        try await document.close()
    }

    @Test func mergeKeepsWhatBothSidesAdded() async throws {
        let (document, version, start, ours) = try await conflicted()
        let conflicts = try await document.mergeUnresolvedVersions()
        #expect(conflicts.isEmpty, "\(conflicts)")
        #expect(await document.state == .normal)
        #expect(await document.hasUnsavedChanges == false)
        #expect(try await document.unresolvedVersions().isEmpty)
        let disk = try DiskGallery.read(path)
        #expect(disk.id == start.documentID)
        #expect(Set(disk.images.map(\.id)) == [start.base.id, ours.id, start.theirsImage.id])
        #expect(disk.images.first?.id == start.base.id)
        let blobs = try DiskGallery.blobs(path)
        #expect(blobs[ours.id] == TestImage.png(seed: 3))
        #expect(blobs[start.theirsImage.id] == TestImage.png(seed: 2))
        #expect(blobs[start.base.id] == TestImage.png(seed: 1))
        try DiskGallery.expectValid(path)
        #expect(try await document.otherVersions().first { $0.id == version.id }?.isResolved == true)
        try await document.close()
    }

    // MARK: (f) Sync clients' conflict copies

    static let syncthingName = "trip.sync-conflict-20260101-120000-ABCDEF1.imagegallery"

    @Test func aSyncConflictCopyOfTheDocumentIsAnUnresolvedVersion() async throws {
        let start = try await start()
        let copy = directory.file(Self.syncthingName)
        try Disk.run("/bin/cp", [start.theirs, copy])

        let document = GalleryDocument(path: path, options: directory.documentOptions())
        let result = try await document.open()
        #expect(result.state == .inConflict)
        #expect(result.unresolvedVersions.count == 1)
        let version = try #require(result.unresolvedVersions.first)
        #expect(version.origin == .syncCopy && version.file == Disk.resolved(copy) && !version.isResolved)
        #expect(version.documentID == start.documentID && version.host == "syncthing")
        #expect(try await document.unresolvedVersions().map(\.id) == [version.id])

        // Merged: both sides' images, and the copy is settled for good.
        let conflicts = try await document.mergeUnresolvedVersions()
        #expect(conflicts.isEmpty, "\(conflicts)")
        #expect(await document.state == .normal)
        #expect(try DiskGallery.read(path).images.map(\.id) == [start.base.id, start.theirsImage.id])
        #expect(try DiskGallery.blobs(path)[start.theirsImage.id] == TestImage.png(seed: 2))
        try DiskGallery.expectValid(path)
        try await document.close()

        let again = GalleryDocument(path: path, options: directory.documentOptions())
        #expect(try await again.open().state == .normal, "the copy's resolution is remembered")
        #expect(Disk.exists(copy))
        try await again.removeOtherVersions()
        #expect(!Disk.exists(copy), "removing other versions deletes a sync client's copy")
        try await again.close()
    }

    @Test func aLookalikeOfAnotherDocumentIsIgnored() async throws {
        _ = try await start()
        let lookalike = directory.file(Self.syncthingName)
        let other = try await GalleryDocument.create(at: lookalike, title: "Another document",
                                                     options: directory.documentOptions())
        try await other.insertImage(data: TestImage.png(seed: 5))
        try await other.close()
        let lookalikeBytes = try FileBytes.read(lookalike)

        let document = GalleryDocument(path: path, options: directory.documentOptions())
        let result = try await document.open()
        #expect(result.state == .normal)
        #expect(result.unresolvedVersions.isEmpty)
        #expect(try await document.otherVersions().isEmpty)
        try await document.removeOtherVersions()
        #expect(try FileBytes.read(lookalike) == lookalikeBytes, "another document's file is never touched")
        try await document.close()
    }
}
