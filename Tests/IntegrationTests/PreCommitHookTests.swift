import Foundation
import GalleryTestSupport
import Testing

/// The hook of `.pre-commit-hooks.yaml`, run by the real pre-commit framework (PyPI, installed by
/// scripts/install-deps) in a temporary git repository, as a project that keeps galleries would
/// use it: the hook repository is a git repository holding this checkout's hook file, and
/// `imagegallery` is found on PATH, as the hook's `language: system` expects.
@Suite("pre-commit hook")
struct PreCommitHookTests {
    let folder: TemporaryDirectory
    let git: String
    let python: String
    let environment: [String: String]
    var hooks: String { folder.file("hooks") }
    var project: String { folder.file("project") }

    init() throws {
        folder = try TemporaryDirectory()
        git = try #require(Subprocess.which("git"), "git is not installed: run scripts/install-deps")
        python = try #require(Subprocess.which("python3"), "python3 is not installed")
        let found = try Subprocess.run(python, ["-c", "import pre_commit"])
        try #require(found.status == 0, "pre-commit is not installed for \(python): run scripts/install-deps test")
        let binaryFolder = (try TestPaths.binary() as NSString).deletingLastPathComponent
        environment = [
            "PATH": binaryFolder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "PRE_COMMIT_HOME": folder.file("pre-commit-cache"),
            "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.org",
            "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.org",
        ]
        for repository in [hooks, project] {
            try FileManager.default.createDirectory(atPath: repository, withIntermediateDirectories: false)
            try run(git, ["init", "-q", "-b", "main"], in: repository)
        }
        try FileManager.default.copyItem(atPath: TestPaths.repository + "/.pre-commit-hooks.yaml", toPath: hooks + "/.pre-commit-hooks.yaml")
        try run(git, ["add", ".pre-commit-hooks.yaml"], in: hooks)
        try run(git, ["commit", "-q", "-m", "hooks"], in: hooks)
        let revision = try run(git, ["rev-parse", "HEAD"], in: hooks).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try """
        repos:
          - repo: \(hooks)
            rev: \(revision)
            hooks:
              - id: imagegallery-validate

        """.write(toFile: project + "/.pre-commit-config.yaml", atomically: true, encoding: .utf8)
        try "notes\n".write(toFile: project + "/README.txt", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: TestPaths.fixture("valid/all.imagegallery"), toPath: project + "/trip.imagegallery")
        try run(git, ["add", "."], in: project)
        try run(git, ["commit", "-q", "-m", "base"], in: project)
    }

    /// The framework, as `python3 -m pre_commit`: the Python that scripts/install-deps installed it for.
    @discardableResult
    func preCommit(_ arguments: [String], expecting status: Int32? = 0) throws -> ProcessResult {
        try run(python, ["-m", "pre_commit"] + arguments, in: project, expecting: status)
    }

    @discardableResult
    func run(_ program: String, _ arguments: [String], in directory: String, expecting status: Int32? = 0) throws -> ProcessResult {
        let result = try Subprocess.run(program, arguments, in: directory, environment: environment)
        if let status, result.status != status {
            Issue.record("\(program) \(arguments.joined(separator: " ")) exited \(result.status): \(result.stdout)\(result.stderr)")
        }
        return result
    }

    @Test func aValidGalleryPassesAndAnInvalidOneFailsNamingIt() throws {
        let valid = try preCommit(["run", "--all-files"])
        #expect(valid.stdout.contains("imagegallery validate") && valid.stdout.contains("Passed"), "\(valid.stdout)")

        try FileManager.default.copyItem(atPath: TestPaths.fixture("invalid/IG-MAN-001-trailing-comma.imagegallery"),
                                         toPath: project + "/broken.imagegallery")
        try run(git, ["add", "broken.imagegallery"], in: project)
        let invalid = try preCommit(["run"], expecting: 1)
        #expect(invalid.stdout.contains("Failed"), "\(invalid.stdout)")
        #expect(invalid.stdout.contains("broken.imagegallery") && invalid.stdout.contains("IG-MAN-001"), "\(invalid.stdout)")
        // Only staged galleries are handed to the hook, not the valid one already committed.
        #expect(!invalid.stdout.contains("trip.imagegallery"), "\(invalid.stdout)")
    }

    @Test func theInstalledHookRefusesACommitOfAnInvalidGallery() throws {
        try preCommit(["install"])
        try FileManager.default.copyItem(atPath: TestPaths.fixture("invalid/IG-MAN-001-trailing-comma.imagegallery"),
                                         toPath: project + "/broken.imagegallery")
        try run(git, ["add", "broken.imagegallery"], in: project)
        let head = try run(git, ["rev-parse", "HEAD"], in: project).stdout
        let refused = try run(git, ["commit", "-q", "-m", "broken"], in: project, expecting: 1)
        #expect(refused.stdout.contains("IG-MAN-001") || refused.stderr.contains("IG-MAN-001"), "\(refused.stdout)\(refused.stderr)")
        #expect(try run(git, ["rev-parse", "HEAD"], in: project).stdout == head)

        // Fixed (the file taken out), the commit goes through.
        try run(git, ["rm", "-q", "--cached", "broken.imagegallery"], in: project)
        try FileManager.default.copyItem(atPath: TestPaths.fixture("valid/all.imagegallery"), toPath: project + "/second.imagegallery")
        try run(git, ["add", "second.imagegallery"], in: project)
        try run(git, ["commit", "-q", "-m", "second"], in: project)
        #expect(try run(git, ["rev-parse", "HEAD"], in: project).stdout != head)
    }
}
