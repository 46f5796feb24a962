import Foundation
import GalleryTestSupport
import Testing

/// `validate --format github`: annotations a GitHub Actions run shows on the files, and nothing
/// a hostile file or file name holds can become a workflow command of its own.
@Suite("imagegallery validate: GitHub annotations")
struct ValidateGitHubAnnotationTests {
    @Test func eachFindingIsAnAnnotationOnItsFile() throws {
        let invalid = TestPaths.fixture("invalid/IG-MAN-008-width-zero.imagegallery")
        let warned = TestPaths.fixture("invalid/warnings/IG-PKG-025-hidden-bytes-before-cd.imagegallery")
        let valid = TestPaths.fixture("valid/three.imagegallery")
        let result = try Subprocess.imagegallery(["validate", "--format", "github", valid, invalid, warned])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let escapedInvalid = invalid.replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
        #expect(lines.contains { $0.hasPrefix("::error file=\(escapedInvalid),title=IG-MAN-008::") }, "\(result.stdout)")
        #expect(lines.contains { $0.hasPrefix("::warning file=") && $0.contains("title=IG-PKG-025::") }, "\(result.stdout)")
        #expect(lines.contains("imagegallery validate: \(valid): valid, 0 errors, 0 warnings"), "\(result.stdout)")
        #expect(lines.contains { $0.hasPrefix("imagegallery validate: \(invalid): invalid, 1 error") }, "\(result.stdout)")
    }

    @Test func aHostileNameCannotIssueAWorkflowCommand() throws {
        let directory = try TemporaryDirectory()
        // A file named like a workflow command, holding an entry whose name carries a newline
        // and another command, in a gallery otherwise sound enough to be read.
        let path = directory.file("::stop-commands::pwned.imagegallery")
        let script = """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w") as z:
                z.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.imagegallery+zip")
                z.writestr("images/a\\n::add-mask::secret%0A::error::x.jpg", b"x")
            """
        let made = try Subprocess.run("/usr/bin/python3", ["-c", script, path])
        try #require(made.status == 0, "\(made.stderr)")
        let result = try Subprocess.imagegallery(["validate", "--format", "github", directory.path])
        #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count > 1)
        for line in lines where line.hasPrefix("::") {
            // Only our own commands, each on a file, and the hostile text never unescaped.
            #expect(line.hasPrefix("::error file=") || line.hasPrefix("::warning file=") || line.hasPrefix("::notice file="), "\(line)")
            #expect(line.contains("%3A%3Astop-commands%3A%3Apwned.imagegallery,title="), "\(line)")
        }
        #expect(!result.stdout.contains("\n::add-mask::") && !result.stdout.contains("\n::stop-commands::"), "\(result.stdout)")
        #expect(lines.contains { $0.hasPrefix("imagegallery validate: ") && $0.contains("::stop-commands::pwned.imagegallery: invalid") },
                "\(result.stdout)")
    }

    /// A comma or colon followed by a combining accent is one Character to Swift, and "\r\n"
    /// is one too: the escaping works on scalars, so neither passes through raw.
    @Test func aCombiningMarkCannotHideACommaOrALineBreak() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("a,\u{301}title=pwned:\u{301}x.imagegallery")
        try FileBytes.write(Array(try FileBytes.read(TestPaths.fixture("invalid/IG-MAN-008-width-zero.imagegallery"))), to: path)
        let result = try Subprocess.imagegallery(["validate", "--format", "github", path])
        #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
        let annotation = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("::error file=") })
        let properties = try #require(annotation.dropFirst(2).split(separator: "::", maxSplits: 1).first)
        // Our one separator, before our title; the name's comma and colon escaped.
        #expect(properties.unicodeScalars.filter { $0 == "," }.count == 1, "\(annotation)")
        #expect(properties.contains("a%2C\u{301}title=pwned%3A\u{301}x.imagegallery,title=IG-MAN-008"), "\(annotation)")
    }
}
