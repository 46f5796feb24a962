import Foundation
import GalleryTestSupport
import Testing

/// `scripts/check-front-end` (run by `make test`) fails on a syntax error in an editor module or
/// in the web gallery's script, naming the file and the line: checked on a copy of the two
/// folders with an error planted in each.
@Suite struct FrontEndCheckTests {
    static let script = TestPaths.repository + "/scripts/check-front-end"
    static let folders = ["Sources/GalleryEditor/FrontEnd", "Sources/GalleryConvert/WebGallery"]

    /// A copy of the folders the script checks, laid out as in the repository.
    static func copy() throws -> TemporaryDirectory {
        let root = try TemporaryDirectory()
        for folder in folders {
            let target = root.file(folder)
            try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: TestPaths.repository + "/" + folder, toPath: target)
        }
        return root
    }

    /// Inserts `line` into `file`, as its line `number` (from 1).
    static func plant(_ line: String, at number: Int, in file: String) throws {
        var lines = try String(contentsOfFile: file, encoding: .utf8).components(separatedBy: "\n")
        lines.insert(line, at: number - 1)
        try lines.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
    }

    @Test func theRepositorysScriptsPass() throws {
        let result = try Subprocess.run("/usr/bin/python3", [Self.script])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func aSyntaxErrorInAModuleFailsNamingTheFileAndLine() throws {
        let root = try Self.copy()
        try Self.plant("  const = 1;", at: 12, in: root.file("Sources/GalleryEditor/FrontEnd/editor-grid.js"))
        let result = try Subprocess.run("/usr/bin/python3", [Self.script, "--root", root.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("Sources/GalleryEditor/FrontEnd/editor-grid.js:12: SyntaxError"), "\(result.stderr)")
        #expect(!result.stderr.contains("WebGallery"), "\(result.stderr)")
    }

    /// Module syntax is an error in a classic script, and a classic script's error is found too.
    @Test func theWebGallerysScriptIsCheckedAsAClassicScript() throws {
        let root = try Self.copy()
        try Self.plant("import {x} from './x.js';", at: 1, in: root.file("Sources/GalleryConvert/WebGallery/gallery.js"))
        let result = try Subprocess.run("/usr/bin/python3", [Self.script, "--root", root.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("Sources/GalleryConvert/WebGallery/gallery.js:1: SyntaxError"), "\(result.stderr)")
    }

    /// An editor module is checked as a module: `with`, which a classic script allows outside
    /// strict code, is an error in a module (always strict).
    @Test func theEditorsFilesAreCheckedAsModules() throws {
        let root = try Self.copy()
        try Self.plant("with (Math) { max(1, 2); }", at: 1, in: root.file("Sources/GalleryEditor/FrontEnd/editor-keys.js"))
        let result = try Subprocess.run("/usr/bin/python3", [Self.script, "--root", root.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("Sources/GalleryEditor/FrontEnd/editor-keys.js:1: SyntaxError"), "\(result.stderr)")
    }
}
