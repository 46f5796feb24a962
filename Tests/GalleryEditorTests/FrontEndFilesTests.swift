import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryEditor

/// The editor's front end has one list of files, `EditorRoutes.frontEndFiles`: Package.swift
/// compiles the whole `FrontEnd/` folder into the binary, and these tests hold the table to the
/// folder and the modules' imports to the table, so a file added in one place and forgotten in
/// another fails here.
@Suite struct FrontEndFilesTests {
    static let folder = TestPaths.repository + "/Sources/GalleryEditor/FrontEnd"

    static func folderFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
    }

    static func text(_ name: String) throws -> String {
        try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
    }

    /// The relative imports of an ES module: `import ... from './name.js'`, as file names.
    static func imports(of source: String) throws -> [String] {
        let pattern = try NSRegularExpression(pattern: #"^import\b[^;]*?\bfrom\s+'\./([^']+)'"#, options: [.anchorsMatchLines])
        return pattern.matches(in: source, range: NSRange(source.startIndex..., in: source)).compactMap { match in
            Range(match.range(at: 1), in: source).map { String(source[$0]) }
        }
    }

    @Test func theTableNamesEveryFileOfTheFolderOnce() throws {
        let names = EditorRoutes.frontEndFiles.map(\.name)
        #expect(Set(names).count == names.count, "a file named twice: \(names)")
        #expect(names.sorted() == (try Self.folderFiles()),
                "EditorRoutes.frontEndFiles and Sources/GalleryEditor/FrontEnd differ: add the file to the table, or remove it")
    }

    @Test func eachEntryServesItsOwnFile() throws {
        for (name, bytes) in EditorRoutes.frontEndFiles {
            let onDisk = try Data(contentsOf: URL(fileURLWithPath: Self.folder + "/" + name))
            #expect(Array(onDisk) == bytes, "\(name): the table's PackageResources member is another file's")
        }
    }

    /// Issue 30's budget: the whole front end, icons included, under 120 KB uncompressed, so a
    /// first paint never waits on the page's own code.
    @Test func theFrontEndStaysUnder120KB() {
        let total = EditorRoutes.frontEndFiles.reduce(0) { $0 + $1.bytes.count }
        #expect(total > 0 && total < 120_000, "the front end is \(total) bytes")
    }

    @Test func packageSwiftEmbedsTheWholeFolder() throws {
        let manifest = try String(contentsOfFile: TestPaths.repository + "/Package.swift", encoding: .utf8)
        #expect(manifest.contains(#".embedInCode("FrontEnd")"#))
        #expect(!manifest.contains(#".embedInCode("FrontEnd/"#), "FrontEnd's files are embedded as a folder, never listed one by one")
    }

    @Test func indexLoadsOneEntryModule() throws {
        let index = try Self.text("index.html")
        let tags = index.components(separatedBy: "<script").dropFirst()
        #expect(tags.count == 1, "index.html loads one script, the entry module")
        #expect(index.contains(#"<script type="module" src="/editor-start.js"></script>"#))
        #expect(EditorRoutes.frontEndPath("editor-start.js") == "/editor-start.js")
    }

    @Test func everyModuleIsImportedFromTheEntryAndEveryImportIsServed() throws {
        let served = Set(EditorRoutes.frontEndFiles.map(\.name).filter { EditorRoutes.frontEndPath($0) != nil })
        let modules = Set(try Self.folderFiles().filter { $0.hasSuffix(".js") })
        var reached: Set<String> = ["editor-start.js"]
        var queue = ["editor-start.js"]
        while let module = queue.popLast() {
            for imported in try Self.imports(of: try Self.text(module)) {
                #expect(served.contains(imported), "\(module) imports ./\(imported), which the editor does not serve")
                if modules.contains(imported), reached.insert(imported).inserted { queue.append(imported) }
            }
        }
        #expect(reached == modules, "modules no import reaches from editor-start.js: \(modules.subtracting(reached).sorted())")
    }

    /// index.html names every module but the entry for preloading, so that the browser fetches
    /// them all at once instead of one level of imports after another; a module added without its
    /// line, or a line left for a module gone, fails here.
    @Test func indexPreloadsEveryOtherModule() throws {
        let index = try Self.text("index.html")
        let pattern = try NSRegularExpression(pattern: #"<link rel="modulepreload" href="/([^"]+)">"#)
        let preloaded = pattern.matches(in: index, range: NSRange(index.startIndex..., in: index)).compactMap { match in
            Range(match.range(at: 1), in: index).map { String(index[$0]) }
        }
        let modules = try Self.folderFiles().filter { $0.hasSuffix(".js") && $0 != "editor-start.js" }
        #expect(preloaded.sorted() == modules, "index.html preloads \(preloaded.sorted()), the modules are \(modules)")
    }

    /// Order independence: a module other than the entry runs nothing when it is evaluated, it only
    /// declares (imports, functions, constants and variables); the entry alone starts the page.
    @Test func onlyTheEntryRunsCodeAtItsTopLevel() throws {
        let declaration = try NSRegularExpression(pattern: #"^(import |export |(async )?function |const |let |//|[\]})]|$|\s)"#)
        for module in try Self.folderFiles() where module.hasSuffix(".js") && module != "editor-start.js" {
            for (number, line) in try Self.text(module).components(separatedBy: "\n").enumerated() {
                let range = NSRange(line.startIndex..., in: line)
                #expect(declaration.firstMatch(in: line, range: range) != nil, "\(module):\(number + 1) runs at the top level: \(line)")
            }
        }
    }

    @Test func contentTypesFollowTheExtension() {
        #expect(EditorRoutes.frontEndType("editor-grid.js") == "text/javascript; charset=utf-8")
        #expect(EditorRoutes.frontEndType("editor.css") == "text/css; charset=utf-8")
        #expect(EditorRoutes.frontEndType("index.html") == "text/html; charset=utf-8")
        #expect(EditorRoutes.frontEndPath("index.html") == "/")
        #expect(EditorRoutes.frontEndPath("refused.html") == nil)
    }
}
