import Foundation
import GalleryFormat
import GalleryTestSupport
import Testing

/// The merge driver and textconv, set up as the README says, in a real git repository. git is
/// a declared test dependency (scripts/install-deps): without it these tests fail.
@Suite("git integration")
struct GitIntegrationTests {
    let workspace: EditingWorkspace
    let gitProgram: String
    var repository: String { workspace.directory.file("repo") }
    var gallery: String { repository + "/trip.imagegallery" }

    init() throws {
        workspace = try EditingWorkspace(images: 0)
        gitProgram = try #require(Subprocess.which("git"), "git is not installed: run scripts/install-deps")
        let binary = try TestPaths.binary()
        try FileManager.default.createDirectory(atPath: repository, withIntermediateDirectories: false)
        try git("init", "-q", "-b", "main")
        try git("config", "user.email", "test@example.org")
        try git("config", "user.name", "Test")
        try git("config", "merge.imagegallery.name", "imagegallery three-way merge by image id")
        try git("config", "merge.imagegallery.driver", "\(binary) merge-driver %O %A %B")
        try git("config", "diff.imagegallery.textconv", "\(binary) textconv")
        try "*.imagegallery merge=imagegallery diff=imagegallery\n".write(toFile: repository + "/.gitattributes",
                                                                            atomically: true, encoding: .utf8)
        #expect(try workspace.run(["create", gallery, "--title", "Trip", try workspace.image(1)]).status == 0)
        try git("add", ".")
        try git("commit", "-q", "-m", "base")
    }

    @discardableResult
    func git(_ arguments: String..., expecting status: Int32? = 0) throws -> ProcessResult {
        let result = try Subprocess.run(gitProgram, arguments, in: repository, environment: workspace.environment)
        if let status, result.status != status {
            Issue.record("git \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)")
        }
        return result
    }

    func commitOnBranch(_ branch: String, _ edit: [String]) throws {
        try git("checkout", "-q", "-b", branch, "main")
        let result = try workspace.run(edit)
        #expect(result.status == 0, "\(result.stderr)")
        try git("commit", "-q", "-am", branch)
    }

    @Test func twoBranchesThatEachAddAnImageMergeCleanly() throws {
        try commitOnBranch("left", ["add", gallery, try workspace.image(2)])
        try commitOnBranch("right", ["add", gallery, try workspace.image(3), "--at", "1"])
        try git("checkout", "-q", "left")
        try git("merge", "-q", "--no-edit", "right")
        #expect(try workspace.names(gallery) == ["image-3.png", "image-1.png", "image-2.png"])
        #expect(try workspace.isValid(gallery))
        #expect(try git("status", "--porcelain").stdout.isEmpty)
        // textconv: the diff of the merge against the left side names the image it brought.
        let diff = try git("diff", "HEAD~1", "--", "trip.imagegallery")
        #expect(diff.stdout.contains("image-3.png") && !diff.stdout.contains("Binary files"), "\(diff.stdout)")
    }

    @Test func aTrueConflictFailsAndLeavesAValidGallery() throws {
        try commitOnBranch("left", ["caption", gallery, "1", "from the left"])
        try commitOnBranch("right", ["caption", gallery, "1", "from the right"])
        try git("checkout", "-q", "left")
        let merge = try git("merge", "--no-edit", "right", expecting: nil)
        #expect(merge.status != 0)
        #expect((merge.stdout + merge.stderr).contains("caption"), "\(merge.stdout)\(merge.stderr)")
        #expect(try workspace.isValid(gallery))
        #expect(try workspace.content(gallery).images.first?.caption == "from the left")
    }

    /// The driver directly: 1 on conflict, 0 when clean, and the same inputs give the same bytes.
    @Test func theDriverIsDeterministic() throws {
        let base = workspace.directory.file("base.imagegallery")
        try FileManager.default.copyItem(atPath: gallery, toPath: base)
        let ours = workspace.directory.file("ours.imagegallery"), theirs = workspace.directory.file("theirs.imagegallery")
        try FileManager.default.copyItem(atPath: gallery, toPath: ours)
        try FileManager.default.copyItem(atPath: gallery, toPath: theirs)
        #expect(try workspace.run(["add", ours, try workspace.image(4)]).status == 0)
        #expect(try workspace.run(["add", theirs, try workspace.image(5)]).status == 0)
        var outputs: [[UInt8]] = []
        for name in ["a", "b"] {
            let copy = workspace.directory.file("\(name).imagegallery")
            try FileManager.default.copyItem(atPath: ours, toPath: copy)
            #expect(try workspace.run(["merge-driver", base, copy, theirs]).status == 0)
            outputs.append(try FileBytes.read(copy))
        }
        #expect(outputs[0] == outputs[1])
        #expect(try workspace.names(workspace.directory.file("a.imagegallery")) == ["image-1.png", "image-4.png", "image-5.png"])
    }

    /// The driver directly, on a conflict: git's 1 (`ErrorCategory.mergeConflict`), not the 3
    /// that `resolve --merge` gives a merge that kept one side, and ours kept, still valid.
    @Test func theDriverExitsOneOnAConflict() throws {
        let base = workspace.directory.file("base.imagegallery")
        let ours = workspace.directory.file("ours.imagegallery"), theirs = workspace.directory.file("theirs.imagegallery")
        for copy in [base, ours, theirs] { try FileManager.default.copyItem(atPath: gallery, toPath: copy) }
        #expect(try workspace.run(["caption", ours, "1", "from ours"]).status == 0)
        #expect(try workspace.run(["caption", theirs, "1", "from theirs"]).status == 0)
        let merge = try workspace.run(["merge-driver", base, ours, theirs])
        #expect(merge.status == 1, "\(merge.stderr)")
        #expect(merge.stderr.contains("merge conflict in \(ours)"), "\(merge.stderr)")
        #expect(try workspace.isValid(ours))
        #expect(try workspace.content(ours).images.first?.caption == "from ours")
    }
}
