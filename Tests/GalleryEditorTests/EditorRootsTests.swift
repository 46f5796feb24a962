import Foundation
import GallerySystem
import GalleryTestSupport
import SystemPackage
import Testing
@testable import GalleryEditor

/// What the editor serves is a root gallery or a gallery directly in a root folder, judged by
/// the path's bytes: never a gallery one folder deeper behind a name that starts with a
/// combining mark, nor one in a sibling folder whose name is only canonically equal to a root's.
@Suite struct EditorRootsTests {
    let top: TemporaryDirectory
    let root: String
    let sibling: String

    init() throws {
        top = try TemporaryDirectory()
        // "café" in NFC is the root; "café" in NFD, a different folder, is beside it.
        root = top.file("caf\u{E9}")
        sibling = top.file("cafe\u{301}")
        for folder in [root, sibling, root + "/x"] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false) }
        for gallery in [root + "/g.imagegallery", root + "/x/\u{301}deep.imagegallery", sibling + "/theirs.imagegallery"] {
            try FileManager.default.copyItem(atPath: TestPaths.fixture("valid/all.imagegallery"), toPath: gallery)
        }
    }

    @Test func onlyTheRootFoldersOwnGalleriesAreInside() throws {
        let roots = try EditorRoots(paths: [root])
        let resolvedRoot = try GalleryFileSystem.resolvedPath(FilePath(root)).string
        #expect(roots.contains(resolvedRoot + "/g.imagegallery"))
        #expect(!roots.contains(resolvedRoot + "/x/\u{301}deep.imagegallery"))
        #expect(!roots.contains(try GalleryFileSystem.resolvedPath(FilePath(sibling)).string + "/theirs.imagegallery"))
    }

    /// Links in the root to the deeper gallery and to the sibling's: neither is listed, and
    /// neither key opens.
    @Test func linksOutOfTheRootAreNeitherListedNorOpened() async throws {
        try FileManager.default.createSymbolicLink(atPath: root + "/deep.imagegallery", withDestinationPath: root + "/x/\u{301}deep.imagegallery")
        try FileManager.default.createSymbolicLink(atPath: root + "/theirs.imagegallery", withDestinationPath: sibling + "/theirs.imagegallery")
        let library = GalleryLibrary(roots: try EditorRoots(paths: [root]))
        #expect(await library.galleries().map(\.fileName) == ["g.imagegallery"])
        for outside in [root + "/x/\u{301}deep.imagegallery", sibling + "/theirs.imagegallery"] {
            let key = GalleryLibrary.key(of: try GalleryFileSystem.resolvedPath(FilePath(outside)).string)
            await #expect(throws: EditorError.self) { try await library.path(forKey: key) }
        }
    }
}
