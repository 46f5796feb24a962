import Foundation
import GalleryFormat
import GalleryTestSupport
import Testing

/// The same hostile text through the three kinds of markup the toolkit writes: the JUnit report
/// of `validate`, the ComicInfo.xml of a comic book and the pages of a web gallery. All go
/// through one escaper (`MarkupText`), so they must agree on every character.
@Suite("Markup escaping")
struct MarkupEscapingTests {
    /// Markup and quotes (no `/`: the text is a file name too); C0 controls (a terminal escape among them); DEL and C1 controls; the
    /// noncharacters U+FFFE, U+FFFF, U+FDD0 and U+10FFFF; bidirectional overrides, isolates and
    /// marks. (A lone surrogate cannot be in a Swift string at all; U+FDD0 cannot be written as
    /// an escape in a Swift literal, so it is made from its value.)
    static let hostile = "Tom's \"<b>x<b>\" & co\u{1}\u{8}\u{B}\u{1B}[31m\u{1F}\u{7F}\u{80}\u{85}\u{9B}\u{9F}"
        + "\u{FFFE}\u{FFFF}" + String(Unicode.Scalar(UInt32(0xFDD0))!) + "\u{10FFFF} \u{202E}fdp.exe\u{202C} "
        + "\u{2067}iso\u{2069}\u{200F} end"

    /// What an XML parser reads back: everything that XML 1.0 cannot carry, or HTML forbids, is
    /// U+FFFD; the rest, bidirectional characters included, is as written.
    static let parsed = "Tom's \"<b>x<b>\" & co\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}[31m"
        + String(repeating: "\u{FFFD}", count: 10) + " \u{202E}fdp.exe\u{202C} \u{2067}iso\u{2069}\u{200F} end"

    /// The HTML source: markup characters and `'` as references, the unwritable as U+FFFD, the
    /// bidirectional characters as visible hexadecimal references.
    static let html = "Tom&#39;s &quot;&lt;b&gt;x&lt;b&gt;&quot; &amp; co\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}[31m"
        + String(repeating: "\u{FFFD}", count: 10) + " &#x202E;fdp.exe&#x202C; &#x2067;iso&#x2069;&#x200F; end"

    /// Tab, line feed and carriage return, which XML would normalise away if written as they are.
    static let whitespace = "\t\n\r"

    @Test func hostileTextReadsBackAlikeFromJUnitComicInfoAndHTML() throws {
        let directory = try TemporaryDirectory()
        let gallery = directory.file("hostile.imagegallery")
        let created = try Subprocess.imagegallery(["create", gallery, "--title", Self.hostile, "--date", "2026-01-02T03:04:05Z",
                                                   TestPaths.fixture("images/1-sunset.jpg")])
        try #require(created.status == 0, "\(created.stderr)")
        let captioned = try Subprocess.imagegallery(["caption", gallery, "1", Self.hostile])
        try #require(captioned.status == 0, "\(captioned.stderr)")

        // JUnit: the hostile text in file names, one file that passes and one that fails.
        let name = Self.hostile + Self.whitespace + ".imagegallery"
        let passing = try directory.copy(gallery, as: name)
        try FileManager.default.createDirectory(atPath: directory.file("bad"), withIntermediateDirectories: false)
        let failing = try directory.copy(TestPaths.fixture("invalid/IG-PKG-001-plain-text.imagegallery"), as: "bad/" + name)
        let validated = try Subprocess.imagegallery(["validate", "--format", "junit", "--output", directory.file("report.xml"),
                                                     passing, failing])
        #expect(validated.status == 1, "\(validated.stderr)")
        let report = try String(contentsOfFile: directory.file("report.xml"), encoding: .utf8)
        #expect(report.contains(Self.html + "&#9;&#10;&#13;.imagegallery\""), "the name attribute, escaped: \(report)")

        // ComicInfo.xml, in a comic book made from the gallery.
        let comic = directory.file("hostile.cbz")
        let converted = try Subprocess.imagegallery(["convert", gallery, comic])
        try #require(converted.status == 0, "\(converted.stderr)")

        // Both parsed by Python's XML parser (expat), which refuses anything not well-formed.
        let script = """
            import json, sys, zipfile, xml.etree.ElementTree as ET
            junit = ET.parse(sys.argv[1]).getroot()
            cases = junit.find("testsuite").findall("testcase")
            with zipfile.ZipFile(sys.argv[2]) as comic:
                info = ET.fromstring(comic.read("ComicInfo.xml"))
            print(json.dumps({"names": [c.get("name") for c in cases],
                              "failed": [c.find("failure") is not None for c in cases],
                              "title": info.find("Title").text}))
            """
        let python = try Subprocess.run("/usr/bin/python3", ["-c", script, directory.file("report.xml"), comic])
        try #require(python.status == 0, "\(python.stderr)")
        struct Parsed: Decodable { var names: [String]; var failed: [Bool]; var title: String }
        let read = try JSONDecoder().decode(Parsed.self, from: python.stdoutData)
        let readName = Self.parsed + Self.whitespace + ".imagegallery"
        #expect(read.names == [directory.file(readName), directory.file("bad/" + readName)])
        #expect(read.failed == [false, true])
        #expect(read.title == Self.parsed)

        // The web gallery: title, heading and caption carry the escaped forms (the alt text is
        // "Image N of COUNT", a text alternative that does not repeat the caption).
        let web = directory.file("web")
        let exported = try Subprocess.imagegallery(["convert", gallery, web, "--to", "web"])
        try #require(exported.status == 0, "\(exported.stderr)")
        let index = try String(contentsOfFile: web + "/index.html", encoding: .utf8)
        #expect(index.contains("<title>" + Self.html + "</title>"))
        #expect(index.contains("<h1>" + Self.html + "</h1>"))
        #expect(index.contains("<figcaption>" + Self.html + "</figcaption>"))
        let page = try String(contentsOfFile: web + "/pages/001.html", encoding: .utf8)
        #expect(page.contains("<p class=\"caption\">" + Self.html + "</p>"))
        #expect(page.contains("<title>" + Self.html + " (1/1)</title>"))
        for text in [index, page] {
            #expect(!text.unicodeScalars.contains { MarkupEscapingTests.isForbiddenInHTML($0.value) }, "a raw control or noncharacter")
            #expect(!text.contains("\u{202E}"), "a raw right-to-left override")
        }
    }

    /// What HTML calls a parse error in the input stream (besides ASCII white space).
    static func isForbiddenInHTML(_ value: UInt32) -> Bool {
        (value < 0x20 && value != 0x09 && value != 0x0A && value != 0x0D) || (0x7F ... 0x9F).contains(value)
            || (0xFDD0 ... 0xFDEF).contains(value) || value & 0xFFFE == 0xFFFE
    }

    /// The contexts differ only where their parsers do.
    @Test func contextsDifferOnlyInWhiteSpace() {
        #expect(MarkupText.escape(Self.hostile, for: .xmlText) == Self.html)
        #expect(MarkupText.escape(Self.hostile, for: .xmlAttribute) == Self.html)
        #expect(MarkupText.escape(Self.hostile, for: .html) == Self.html)
        #expect(MarkupText.escape("a\tb\nc\rd", for: .xmlText) == "a\tb\nc&#13;d")
        #expect(MarkupText.escape("a\tb\nc\rd", for: .xmlAttribute) == "a&#9;b&#10;c&#13;d")
        #expect(MarkupText.escape("a\tb\nc\rd", for: .html) == "a\tb\nc\rd")
    }
}
