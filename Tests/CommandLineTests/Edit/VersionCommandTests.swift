import Foundation
import GalleryFormat
import GalleryTestSupport
import Testing

/// `versions` and `resolve` against the sync-client fixtures and a conflict made by a save.
@Suite("Versions and resolve")
struct VersionCommandTests {
    /// A copy of Fixtures/sync (fixtures are never changed by a test).
    func syncFolder() throws -> EditingWorkspace {
        let workspace = try EditingWorkspace(images: 0)
        for name in try FileManager.default.contentsOfDirectory(atPath: TestPaths.fixture("sync")) where name.hasSuffix(".imagegallery") {
            let target = workspace.directory.file(name)
            try? FileManager.default.removeItem(atPath: target)
            try FileManager.default.copyItem(atPath: TestPaths.fixture("sync/" + name), toPath: target)
        }
        return workspace
    }

    func versions(_ workspace: EditingWorkspace) throws -> [[String: Any]] {
        let result = try workspace.run(["versions", workspace.gallery, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [[String: Any]],
                            "versions --json printed no list: \(result.stdout)")
    }

    @Test func syncCopiesAreOfferedAndALookalikeIsNot() throws {
        let workspace = try syncFolder()
        let listed = try versions(workspace)
        let files = listed.compactMap { ($0["file"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } }
        #expect(listed.first?["origin"] as? String == "current")
        #expect(Set(files.dropFirst()) == ["trip.sync-conflict-20261122-081502-ABCDEF7.imagegallery",
                                           "trip (conflicted copy jane 2026-11-22 081502).imagegallery",
                                           "trip (Jane's conflicted copy 2026-11-22).imagegallery"])
        #expect(Set(listed.dropFirst().compactMap { $0["host"] as? String }) == ["syncthing", "nextcloud", "dropbox"])
        #expect(listed.dropFirst().allSatisfy { $0["resolved"] as? Bool == false })
    }

    @Test func mergingTheSyncCopiesKeepsEveryonesImages() throws {
        let workspace = try syncFolder()
        let result = try workspace.run(["resolve", workspace.gallery, "--merge"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Set(try workspace.names()) == ["1-sunset.jpg", "2-tiles.png", "3-lighthouse.jpg", "4-dunes.jpg"])
        // The Dropbox copy swapped the two images, and the swap applies.
        let names = try workspace.names()
        #expect(try #require(names.firstIndex(of: "2-tiles.png")) < #require(names.firstIndex(of: "1-sunset.jpg")), "\(names)")
        #expect(try workspace.isValid())
        // The three sync copies are still listed, each now resolved.
        let after = try versions(workspace).dropFirst()
        #expect(after.count == 3, "\(after)")
        #expect(after.allSatisfy { $0["resolved"] as? Bool == true }, "\(after)")
        // A second open finds nothing left to resolve.
        let again = try workspace.run(["rename", workspace.gallery, "Trip!"])
        #expect(again.status == 0 && !again.stderr.contains("unresolved"), "\(again.stderr)")
    }

    @Test func keepingAVersionReplacesTheFile() throws {
        let workspace = try syncFolder()
        let listed = try versions(workspace)
        let syncthing = try #require(listed.first { $0["host"] as? String == "syncthing" })
        let id = try #require(syncthing["id"] as? String)
        let result = try workspace.run(["resolve", workspace.gallery, "--keep", String(id.prefix(8)), "--remove-others"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try workspace.names() == ["1-sunset.jpg", "2-tiles.png", "3-lighthouse.jpg"])
        #expect(try versions(workspace).count == 1)
        // The lookalike of another document is never touched.
        #expect(FileManager.default.fileExists(atPath: workspace.directory.file("trip (Bob's conflicted copy 2026-11-23).imagegallery")))
    }
}
