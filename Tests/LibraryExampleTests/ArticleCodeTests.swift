import Foundation
import Testing

/// Every ```swift block of every DocC article under Sources/*/*.docc must appear, line for
/// line (leading indentation aside), in the other Swift files of this target, which compile
/// and run: so the articles' code compiles against the public API, and does what they say.
@Suite("Article code")
struct ArticleCodeTests {
    /// Catalogues that must exist; any other found under Sources/ is checked too.
    static let requiredCatalogues = [
        "GalleryFormat", "GalleryBuilder", "GalleryDocument", "GalleryImaging", "GalleryConvert", "GalleryFetch",
    ]

    struct Catalogue {
        var module: String
        var folder: URL
    }

    struct Block {
        var article: String
        var number: Int
        var line: Int
        var lines: [String]
    }

    @Test func everyArticleBlockIsInTheExampleSources() throws {
        let catalogues = try Self.catalogues()
        let sources = try Self.exampleSources()
        var checked = 0
        for catalogue in catalogues {
            let articles = try Self.articles(in: catalogue)
            #expect(!articles.isEmpty, "\(catalogue.module).docc has no article besides its landing page")
            var blocks: [Block] = []
            for article in try Self.markdownFiles(in: catalogue.folder) {
                blocks += try Self.swiftBlocks(in: article, named: Self.relative(article))
            }
            #expect(!blocks.isEmpty, "\(catalogue.module).docc has no ```swift block: nothing of it would be checked")
            for block in blocks {
                checked += 1
                if !sources.contains(where: { Self.contains($0.lines, block.lines) }) {
                    Issue.record("""
                        \(block.article): block \(block.number) (line \(block.line)) is not in \
                        Tests/LibraryExampleTests/*.swift; it starts: \(block.lines.first ?? "(empty)")
                        """)
                }
            }
        }
        #expect(checked > 0)
    }

    /// The matching itself, on blocks that must and must not be found.
    @Test func aBlockMatchesOnlyAsAWholeRunOfLines() {
        let source = Self.normalized("    let a = 1\n\n    let b = a + 1\n    print(b)\n")
        #expect(Self.contains(source, Self.normalized("let a = 1\n\nlet b = a + 1")))
        #expect(Self.contains(source, Self.normalized("  let b = a + 1\n  print(b)")))
        #expect(!Self.contains(source, Self.normalized("let a = 1\nlet b = a + 1")), "lines must be adjacent")
        #expect(!Self.contains(source, Self.normalized("let b = a + 2")))
        #expect(!Self.contains(source, Self.normalized("print(b)\nlet c = 3")))
        let text = "Intro\n\n```swift\nlet a = 1\n```\n\n- item\n\n  ```swift\n  let b = 2\n  ```\n```sh\nls\n```\n"
        let blocks = Self.swiftBlocks(inText: text, named: "Example.md")
        #expect(blocks.map(\.lines) == [["let a = 1"], ["let b = 2"]])
        #expect(blocks.map(\.line) == [3, 9])
    }

    // MARK: Finding things

    /// The package root: this file is Tests/LibraryExampleTests/ArticleCodeTests.swift.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `Sources/<Module>/<Module>.docc` of every module that has one; a required one missing
    /// is an error, never a pass over nothing.
    static func catalogues() throws -> [Catalogue] {
        let sources = root.appendingPathComponent("Sources")
        let modules = try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted()
        var found: [Catalogue] = []
        for module in modules {
            let folder = sources.appendingPathComponent(module)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for name in names.sorted() where name.hasSuffix(".docc") {
                found.append(Catalogue(module: module, folder: folder.appendingPathComponent(name)))
            }
        }
        for module in requiredCatalogues where !found.contains(where: { $0.module == module }) {
            throw MissingInput("Sources/\(module)/\(module).docc is missing")
        }
        return found
    }

    /// The catalogue's Markdown files other than its landing page (the one titled with the
    /// module's symbol link).
    static func articles(in catalogue: Catalogue) throws -> [URL] {
        try markdownFiles(in: catalogue.folder).filter { file in
            let text = try String(contentsOf: file, encoding: .utf8)
            let title = text.split(separator: "\n", omittingEmptySubsequences: true).first ?? ""
            return !title.hasPrefix("# ``")
        }
    }

    static func markdownFiles(in folder: URL) throws -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            throw MissingInput("\(folder.path) cannot be read")
        }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "md" }
            .sorted { $0.path < $1.path }
    }

    /// The other Swift files of this target, normalized.
    static func exampleSources() throws -> [(name: String, lines: [String])] {
        let me = URL(fileURLWithPath: #filePath)
        let folder = me.deletingLastPathComponent()
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let files = names.filter { $0.hasSuffix(".swift") && $0 != me.lastPathComponent }
        guard !files.isEmpty else { throw MissingInput("\(folder.path) holds no example source") }
        return try files.map { name in
            (name, normalized(try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)))
        }
    }

    static func relative(_ file: URL) -> String {
        String(file.path.dropFirst(root.path.count + 1))
    }

    // MARK: Blocks and matching

    static func swiftBlocks(in file: URL, named name: String) throws -> [Block] {
        swiftBlocks(inText: try String(contentsOf: file, encoding: .utf8), named: name)
    }

    /// The fenced blocks whose info string is `swift`, at any indentation (in a list, say).
    static func swiftBlocks(inText text: String, named name: String) -> [Block] {
        var blocks: [Block] = []
        var current: Block?
        var inOtherFence = false
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if var block = current {
                if line == "```" {
                    block.lines = normalized(block.lines.joined(separator: "\n"))
                    blocks.append(block)
                    current = nil
                } else {
                    block.lines.append(String(raw))
                    current = block
                }
            } else if inOtherFence {
                if line == "```" { inOtherFence = false }
            } else if line == "```swift" {
                current = Block(article: name, number: blocks.count + 1, line: index + 1, lines: [])
            } else if line.hasPrefix("```") {
                inOtherFence = true
            }
        }
        return blocks
    }

    /// Lines without their leading and trailing blanks; the blank lines around a text dropped.
    static func normalized(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        while lines.first == "" { lines.removeFirst() }
        while lines.last == "" { lines.removeLast() }
        return lines
    }

    /// True when `block` is a run of adjacent lines of `source`.
    static func contains(_ source: [String], _ block: [String]) -> Bool {
        guard !block.isEmpty, block.count <= source.count else { return false }
        return (0 ... source.count - block.count).contains { start in
            source[start ..< start + block.count].elementsEqual(block)
        }
    }

    struct MissingInput: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
