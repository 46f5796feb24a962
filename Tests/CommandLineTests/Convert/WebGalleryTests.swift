import Foundation
import GalleryFormat
import GalleryImageHeaders
import GalleryTestSupport
import Testing

/// `convert --to web` and `view`: the static web gallery, checked as files and in a real
/// headless Chromium loaded from `file://` (Tests/Browser/check-web-gallery.py).
@Suite("Web gallery")
struct WebGalleryTests {
    static let checker = TestPaths.repository + "/Tests/Browser/check-web-gallery.py"
    static let artifacts = TestPaths.repository + "/.build/test-artifacts"

    /// What the browser check prints.
    struct BrowserCheck: Decodable {
        struct Page: Decodable {
            var page: String
            var images: Int
            var broken: [String]
            var heading: String?
            var caption: String?
            var title: String
            var backText: String?
            var filename: String?
            var alts: [String]
        }

        struct Step: Decodable {
            var key: String
            var expect: String
            var ok: Bool
        }

        var ok: Bool
        var failures: [String]?
        var pages: [Page]?
        var keyboard: [Step]?
        var screenshots: [String]?
        var error: String?
    }

    static func imagegallery(_ arguments: [String], environment: [String: String]? = nil) async throws -> ProcessResult {
        try await Blocking.run { try Subprocess.imagegallery(arguments, environment: environment) }
    }

    /// Runs the browser check on an export. A machine without Chromium fails the test: `make test`
    /// installs it (scripts/install-deps test).
    static func browserCheck(_ index: String, screenshot: String, expectImages: Int? = nil,
                             sourceLocation: SourceLocation = #_sourceLocation) async throws -> (ProcessResult, BrowserCheck) {
        try #require(Subprocess.which("chromium") != nil,
                     "chromium is not installed: run scripts/install-deps test (make test does), then run the tests again",
                     sourceLocation: sourceLocation)
        let arguments = [checker, index, "--screenshot", screenshot]
            + (expectImages.map { ["--expect-images", String($0)] } ?? [])
        let result = try await Blocking.run { try Subprocess.run("/usr/bin/python3", arguments) }
        let check = try #require(try? JSONDecoder().decode(BrowserCheck.self, from: result.stdoutData),
                                 "the browser check printed no result (status \(result.status)): \(result.stdout) \(result.stderr)",
                                 sourceLocation: sourceLocation)
        return (result, check)
    }

    static func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    /// Every file under `folder`, relative, sorted.
    static func files(in folder: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder)
        var names: [String] = []
        while let name = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isDirectory), !isDirectory.boolValue {
                names.append(name)
            }
        }
        return names.sorted()
    }

    // MARK: Files

    @Test func theExportHoldsTheOriginalBytesThumbnailsAndOnePagePerImage() async throws {
        let directory = try TemporaryDirectory()
        let web = directory.file("web")
        let result = try await Self.imagegallery(["convert", TestPaths.fixture("valid/three.imagegallery"), web, "--to", "web", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any]
        #expect(report?["imageCount"] as? Int == 3)
        #expect(report?["index"] as? String == web + "/index.html")

        #expect(Self.files(in: web) == [
            "assets/gallery-data.js", "assets/gallery.css", "assets/gallery.js", "assets/slideshow.js", "images/001.jpg",
            "images/002.png", "images/003.jpg", "index.html", "pages/001.html", "pages/002.html", "pages/003.html",
            "sized/001-480.jpg", "sized/003-480.jpg", "thumbs/001.png", "thumbs/002.png", "thumbs/003.png",
        ])
        // The bytes are the gallery's own, as `extract` gives them.
        let extracted = directory.file("extracted")
        #expect(try await Self.imagegallery(["extract", TestPaths.fixture("valid/three.imagegallery"), "--to", extracted]).status == 0)
        for (number, name) in [("001.jpg", "1-1-sunset.jpg"), ("002.png", "2-2-tiles.png"), ("003.jpg", "3-3-lighthouse.jpg")] {
            #expect(try FileBytes.read(web + "/images/" + number) == FileBytes.read(extracted + "/" + name), "\(number)")
        }
        // Thumbnails fit 256 px: 800 × 600 → 256 × 192; 450 × 600 → 192 × 256.
        #expect(try PNGBytes.size(ofFile: web + "/thumbs/001.png").map { [$0.width, $0.height] } == [256, 192])
        #expect(try PNGBytes.size(ofFile: web + "/thumbs/003.png").map { [$0.width, $0.height] } == [192, 256])

        let index = try Self.text(web + "/index.html")
        #expect(index.contains("<title>Three samples</title>"))
        #expect(index.contains("href=\"pages/002.html\""))
        #expect(index.contains("alt=\"Image 2 of 3\""), "no caption: the position is the alt text")
        let page = try Self.text(web + "/pages/002.html")
        #expect(page.contains("src=\"../images/002.png\""))
        #expect(page.contains("href=\"001.html\" rel=\"prev\"") && page.contains("href=\"003.html\" rel=\"next\""))
        // Nothing refers to the network: every reference is relative.
        for name in Self.files(in: web) where !["images/", "thumbs/", "sized/"].contains(where: name.hasPrefix) {
            // JSON-LD names its vocabulary by address; nothing fetches it.
            let text = try Self.text(web + "/" + name).lowercased()
                .replacingOccurrences(of: "\"@context\":\"https://schema.org\"", with: "")
            #expect(!text.contains("http:") && !text.contains("https:") && !text.contains("src=\"//"), "\(name)")
        }
    }

    /// Format 2.0's types: WebP, GIF and AVIF shown as they are, HEIC through a JPEG rendition
    /// its page shows while its "original" link stays the HEIC; every page's pictures load in
    /// Chromium.
    @Test func formatTwoTypesAreShownAndTheHEICThroughARendition() async throws {
        let directory = try TemporaryDirectory()
        let gallery = directory.file("g.imagegallery")
        let samples = ["lossy.webp", "anim.gif", "rotated.avif", "sunset.heic"].map { TestPaths.fixture("format-2.0/" + $0) }
        let created = try await Self.imagegallery(["create", gallery] + samples)
        try #require(created.status == 0, "\(created.stderr)")
        let web = directory.file("web")
        let result = try await Self.imagegallery(["convert", gallery, web, "--to", "web"])
        #expect(result.status == 0, "\(result.stderr)")
        let files = Self.files(in: web)
        for name in ["images/001.webp", "images/002.gif", "images/003.avif", "images/004.heic", "shown/004.jpg", "thumbs/003.png"] {
            #expect(files.contains(name), "\(name) not among \(files)")
        }
        #expect(!files.contains("shown/001.jpg") && !files.contains("shown/003.jpg"), "\(files)")
        #expect(try FileBytes.read(web + "/images/004.heic") == FileBytes.read(samples[3]))
        let shown = try ImageHeader.parse(try FileBytes.read(web + "/shown/004.jpg"))
        #expect(shown.mediaType == .jpeg && shown.width == 800 && shown.height == 600)
        let page = try Self.text(web + "/pages/004.html")
        #expect(page.contains("src=\"../shown/004.jpg\"") && page.contains("href=\"../images/004.heic\">original"), "\(page)")
        // The AVIF turned by its irot: its page gives the upright size.
        #expect(try Self.text(web + "/pages/003.html").contains("width=\"600\" height=\"800\""))
        let (checked, check) = try await Self.browserCheck(web + "/index.html", screenshot: Self.artifacts + "/web-format-2.0.png",
                                                           expectImages: 4)
        #expect(check.ok, "\(check.failures ?? []) \(check.error ?? "") \(checked.stderr)")
        for page in check.pages ?? [] { #expect(page.broken.isEmpty, "\(page.page): \(page.broken)") }
    }

    @Test func anEmptyGalleryGivesAGridThatSaysSo() async throws {
        let directory = try TemporaryDirectory()
        let web = directory.file("web")
        let result = try await Self.imagegallery(["convert", TestPaths.fixture("valid/empty.imagegallery"), web, "--to", "web"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == web + "/index.html\n")
        #expect(try Self.text(web + "/index.html").contains("This gallery has no images."))
        #expect(Self.files(in: web).filter { $0.hasPrefix("pages/") || $0.hasPrefix("images/") }.isEmpty)
    }

    @Test func anImageListedTwiceGetsTwoPages() async throws {
        let directory = try TemporaryDirectory()
        let web = directory.file("web")
        let gallery = TestPaths.fixture("valid/duplicate-blob.imagegallery")
        let count = try GalleryReader(path: gallery).gallery.images.count
        let result = try await Self.imagegallery(["convert", gallery, web, "--to", "web"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.files(in: web).filter { $0.hasPrefix("pages/") }.count == count)
    }

    /// An image our decoders refuse is still exported: the grid shows its original bytes, and a
    /// warning names it.
    @Test func anImageThatDoesNotDecodeIsShownByItsOriginalBytes() async throws {
        let directory = try TemporaryDirectory()
        let truncated = directory.file("truncated.png")
        try FileBytes.write(Array(try FileBytes.read(TestPaths.fixture("images/6-bubbles.png")).prefix(9000)), to: truncated)
        let gallery = directory.file("g.imagegallery")
        let created = try await Self.imagegallery(["create", gallery, truncated, TestPaths.fixture("images/1-sunset.jpg")])
        try #require(created.status == 0, "\(created.stderr)")
        let web = directory.file("web")
        let result = try await Self.imagegallery(["convert", gallery, web, "--to", "web", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning") && result.stderr.contains("image 1"), "\(result.stderr)")
        let report = try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any]
        #expect((report?["warnings"] as? [String])?.count == 1)
        #expect(report?["thumbnailCount"] as? Int == 1)
        let index = try Self.text(web + "/index.html")
        #expect(index.contains("<img src=\"images/001.png\""))
        #expect(index.contains("<img src=\"thumbs/002.png\""))
        #expect(!FileManager.default.fileExists(atPath: web + "/thumbs/001.png"))
    }

    // MARK: Escaping

    static let hostile = "<script>alert(1)</script> \"double\" 'single' & <img src=x onerror=alert(2)>"

    /// A gallery whose title, first caption and first file name are markup.
    static func hostileGallery(in directory: TemporaryDirectory) async throws -> String {
        let image = directory.file("a<b>\"&'.jpg")
        try FileManager.default.copyItem(atPath: TestPaths.fixture("images/1-sunset.jpg"), toPath: image)
        let gallery = directory.file("hostile.imagegallery")
        let created = try await imagegallery(["create", gallery, "--title", hostile, image, TestPaths.fixture("images/2-tiles.png")])
        try #require(created.status == 0, "\(created.stderr)")
        let captioned = try await imagegallery(["caption", gallery, "1", hostile + " </script>"])
        try #require(captioned.status == 0, "\(captioned.stderr)")
        return gallery
    }

    @Test func titlesCaptionsAndFileNamesAreEscaped() async throws {
        let directory = try TemporaryDirectory()
        let gallery = try await Self.hostileGallery(in: directory)
        let web = directory.file("web")
        let result = try await Self.imagegallery(["convert", gallery, web, "--to", "web"])
        #expect(result.status == 0, "\(result.stderr)")

        let escaped = "&lt;script&gt;alert(1)&lt;/script&gt; &quot;double&quot; &#39;single&#39; &amp; "
            + "&lt;img src=x onerror=alert(2)&gt;"
        for name in ["index.html", "pages/001.html"] {
            let html = try Self.text(web + "/" + name)
            #expect(!html.contains("<script>alert"), "\(name)")
            #expect(!html.contains("<img src=x"), "\(name)")
            #expect(html.contains("<title>" + escaped), "\(name)")
            #expect(html.contains("alt=\"Image 1 of 2\""), "\(name): the alt text is the position, not the caption again")
        }
        #expect(try Self.text(web + "/index.html").contains("<figcaption>" + escaped + " &lt;/script&gt;</figcaption>"))
        #expect(try Self.text(web + "/pages/001.html").contains("a&lt;b&gt;&quot;&amp;&#39;.jpg"), "the file name")
        #expect(try Self.text(web + "/pages/001.html").contains("<p class=\"caption\">" + escaped))
        // The strip's data: one JSON string, with no markup character left raw.
        let data = try Self.text(web + "/assets/gallery-data.js")
        #expect(data.contains("\\u003cscript\\u003ealert(1)\\u003c/script\\u003e \\\"double\\\" 'single' \\u0026 "))
        #expect(!data.contains("<") && !data.contains(">"))
    }

    @Test func escapedTextRunsNothingInTheBrowserAndReadsAsWritten() async throws {
        let directory = try TemporaryDirectory()
        let gallery = try await Self.hostileGallery(in: directory)
        let web = directory.file("web")
        #expect(try await Self.imagegallery(["convert", gallery, web, "--to", "web"]).status == 0)
        let (result, check) = try await Self.browserCheck(web + "/index.html", screenshot: directory.file("hostile.png"),
                                                          expectImages: 2)
        // No alert dialog opened, no error, and the text is shown exactly as the gallery holds it.
        #expect(check.ok && result.status == 0, "\(check.failures ?? []) \(check.error ?? "")")
        let pages = check.pages ?? []
        #expect(pages.first?.heading == Self.hostile)
        #expect(pages.first?.title == Self.hostile)
        #expect(pages.first?.alts.first == "Image 1 of 2")
        let first = pages.first { $0.page == "pages/001.html" }
        #expect(first?.caption == Self.hostile + " </script>")
        #expect(first?.filename == "a<b>\"&'.jpg")
        #expect(first?.alts == ["Image 1 of 2"])
    }

    // MARK: In a browser

    /// The acceptance check of issue 7: every image loads, no console error, the keyboard moves
    /// between images; the screenshots are kept for a person to look at.
    @Test func everyFixtureImageLoadsAndTheKeyboardMovesBetweenThemInChromium() async throws {
        let directory = try TemporaryDirectory()
        let gallery = TestPaths.fixture("valid/all.imagegallery")
        let images = try GalleryReader(path: gallery).gallery.images
        // Through `view`, as a user would, without opening a browser of its own.
        let viewed = try await Self.imagegallery(["view", gallery, "--no-open", "--json"],
                                                 environment: ["XDG_CACHE_HOME": directory.file("cache")])
        #expect(viewed.status == 0, "\(viewed.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: viewed.stdoutData) as? [String: Any])
        let index = try #require(report["index"] as? String)
        #expect(index.hasPrefix(directory.file("cache") + "/imagegallery/view/all-"))
        #expect(report["opened"] as? Bool == false)

        let screenshot = directory.file("web-gallery.png")
        let (result, check) = try await Self.browserCheck(index, screenshot: screenshot, expectImages: images.count)
        #expect(result.status == 0 && check.ok, "\(check.failures ?? []) \(check.error ?? "")")
        #expect(check.failures == [])

        // The grid and every image page were loaded, every image in them counted.
        let pages = check.pages ?? []
        #expect(pages.map(\.page) == ["index.html"] + (1 ... images.count).map { String(format: "pages/%03d.html", $0) })
        #expect(pages.first?.images == images.count)
        for page in pages.dropFirst() {
            #expect(page.images == 1 + images.count, "\(page.page): the photo and the strip")
            #expect(page.broken.isEmpty, "\(page.page)")
        }
        // Alt text is the position (the caption is the figure's caption beside it), as the DOM
        // reads it back; the caption is read back as the gallery holds it.
        for (position, image) in images.enumerated() {
            let page = pages.dropFirst().dropFirst(position).first
            #expect(page?.alts.first == "Image \(position + 1) of \(images.count)", "image \(position + 1)")
            let caption = image.caption?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            guard !caption.isEmpty else { continue }
            // The export writes the control characters HTML forbids as U+FFFD; the HTML parser reads
            // CR LF and CR as LF.
            let expected = String(String.UnicodeScalarView(caption.unicodeScalars.map {
                $0.value < 0x20 && $0 != "\t" && $0 != "\n" && $0 != "\r" || (0x7F ... 0x9F).contains($0.value) ? "\u{FFFD}" : $0
            })).replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            #expect(page?.caption == expected, "image \(position + 1)")
        }
        // The keys did what they say.
        let steps = check.keyboard ?? []
        #expect(!steps.isEmpty && steps.allSatisfy(\.ok), "\(steps.filter { !$0.ok }.map(\.expect))")
        #expect(steps.contains { $0.key == "Enter" && $0.ok })
        #expect(steps.filter { $0.key == "ArrowRight" && $0.expect.hasPrefix("image") }.count == images.count - 1)
        #expect(steps.contains { $0.key == "Escape" && $0.ok })
        #expect(steps.contains { $0.key == "drag" && $0.ok })

        // Screenshots of the grid and of an image page, kept for a person to look at.
        let imageShot = directory.file("web-gallery-image.png")
        #expect(try PNGBytes.size(ofFile: screenshot).map { [$0.width, $0.height] } == [1280, 800])
        #expect(try PNGBytes.size(ofFile: imageShot).map { [$0.width, $0.height] } == [1280, 800])
        try FileManager.default.createDirectory(atPath: Self.artifacts, withIntermediateDirectories: true)
        for (source, name) in [(screenshot, "web-gallery.png"), (imageShot, "web-gallery-image.png")] {
            try? FileManager.default.removeItem(atPath: Self.artifacts + "/" + name)
            try FileManager.default.copyItem(atPath: source, toPath: Self.artifacts + "/" + name)
        }
    }

    @Test func anEmptyGalleryHasNoConsoleErrorsEither() async throws {
        let directory = try TemporaryDirectory()
        let web = directory.file("web")
        #expect(try await Self.imagegallery(["convert", TestPaths.fixture("valid/empty.imagegallery"), web, "--to", "web"]).status == 0)
        let (result, check) = try await Self.browserCheck(web + "/index.html", screenshot: directory.file("empty.png"),
                                                          expectImages: 0)
        #expect(result.status == 0 && check.ok, "\(check.failures ?? []) \(check.error ?? "")")
    }

    /// The check can fail: a broken image and a missing thumbnail are both caught.
    @Test func theBrowserCheckFailsOnABrokenExport() async throws {
        let directory = try TemporaryDirectory()
        let web = directory.file("web")
        #expect(try await Self.imagegallery(["convert", TestPaths.fixture("valid/three.imagegallery"), web, "--to", "web"]).status == 0)
        try FileBytes.write(Array("not a JPEG at all".utf8), to: web + "/images/003.jpg")
        try FileManager.default.removeItem(atPath: web + "/thumbs/002.png")
        let (result, check) = try await Self.browserCheck(web + "/index.html", screenshot: directory.file("broken.png"),
                                                          expectImages: 3)
        #expect(result.status == 1 && !check.ok, "\(result.stdout)")
        let failures = check.failures ?? []
        // The grid shows renditions (srcset); the image pages' strip shows the thumbnails.
        #expect(failures.contains { $0.contains("pages/") && $0.contains("thumbs/002.png") }, "\(failures)")
        #expect(failures.contains { $0.contains("pages/003.html") && $0.contains("../images/003.jpg") }, "\(failures)")
        #expect(failures.contains { $0.hasPrefix("log.") && $0.contains("002.png") }, "the browser logs the missing file: \(failures)")
    }

    // MARK: Refusals

    @Test func anExistingFolderIsReplacedOnlyWithForceAndOnlyWhenItIsAWebGallery() async throws {
        let directory = try TemporaryDirectory()
        let gallery = TestPaths.fixture("valid/three.imagegallery")
        let web = directory.file("web")
        #expect(try await Self.imagegallery(["convert", gallery, web, "--to", "web"]).status == 0)
        var result = try await Self.imagegallery(["convert", gallery, web, "--to", "web"])
        #expect(result.status == 73)
        #expect(result.stderr.contains("already exists (use --force"), "\(result.stderr)")
        try FileBytes.write([1], to: web + "/mine.txt")
        result = try await Self.imagegallery(["convert", TestPaths.fixture("valid/empty.imagegallery"), web, "--to", "web", "--force"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: web + "/mine.txt"), "the old export went as a whole")
        #expect(try Self.text(web + "/index.html").contains("no images"))

        // A folder of other things is never replaced.
        let other = directory.file("photos")
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: false)
        try FileBytes.write([1, 2, 3], to: other + "/keep.jpg")
        result = try await Self.imagegallery(["convert", gallery, other, "--to", "web", "--force"])
        #expect(result.status == 73)
        #expect(result.stderr.contains("not a web gallery"), "\(result.stderr)")
        #expect(try FileBytes.read(other + "/keep.jpg") == [1, 2, 3])
        // A folder whose parent is missing is an output problem.
        result = try await Self.imagegallery(["convert", gallery, directory.file("missing/web"), "--to", "web"])
        #expect(result.status == 73, "\(result.stderr)")
        // No temporary folder is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["photos", "web"])
    }

    @Test func aCorruptImageFailsNamingItAndWritesNothing() async throws {
        let directory = try TemporaryDirectory()
        var bytes = try FileBytes.read(TestPaths.fixture("valid/three.imagegallery"))
        let photo = try FileBytes.read(TestPaths.fixture("images/3-lighthouse.jpg"))
        // Blobs are stored: the photo's bytes are in the file as they are.
        let needle = Array(photo[1000 ..< 1032])
        let at = try #require((0 ... bytes.count - needle.count).first { bytes[$0 ..< $0 + needle.count].elementsEqual(needle) })
        bytes[at] ^= 0xFF
        let gallery = directory.file("corrupt.imagegallery")
        try FileBytes.write(bytes, to: gallery)
        let result = try await Self.imagegallery(["convert", gallery, directory.file("web"), "--to", "web"])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains(gallery) && result.stderr.contains("image 3"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["corrupt.imagegallery"])

        let missing = try await Self.imagegallery(["view", directory.file("nothing.imagegallery"), "--no-open"],
                                                  environment: ["XDG_CACHE_HOME": directory.file("cache")])
        #expect(missing.status == 66, "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("cache")), "nothing is made for a missing gallery")
    }

    // MARK: view

    @Test func viewOpensTheIndexWithXdgOpen() async throws {
        let directory = try TemporaryDirectory()
        let bin = directory.file("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: false)
        let record = directory.file("opened.txt")
        try FileBytes.writeScript("#!/bin/sh\nprintf '%s\\n' \"$@\" > '\(record)'\n", to: bin + "/xdg-open")
        let environment = ["PATH": bin, "XDG_CACHE_HOME": directory.file("cache")]
        let result = try await Self.imagegallery(["view", TestPaths.fixture("valid/three.imagegallery")], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let index = result.stdout.trimmingCharacters(in: .newlines)
        #expect(index.hasPrefix(directory.file("cache") + "/imagegallery/view/three-") && index.hasSuffix("/index.html"))
        #expect(FileManager.default.fileExists(atPath: index))
        #expect(try Self.text(record) == index + "\n", "xdg-open was given the index")
    }

    @Test func viewWithoutXdgOpenPrintsThePathAndSucceeds() async throws {
        let directory = try TemporaryDirectory()
        let empty = directory.file("bin")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
        let result = try await Self.imagegallery(["view", TestPaths.fixture("valid/three.imagegallery")],
                                                 environment: ["PATH": empty, "XDG_CACHE_HOME": directory.file("cache")])
        #expect(result.status == 0, "\(result.stderr)")
        let index = result.stdout.trimmingCharacters(in: .newlines)
        #expect(FileManager.default.fileExists(atPath: index))
        #expect(result.stderr.contains("xdg-open is not installed"), "\(result.stderr)")
        #expect(result.stderr.contains(index))
    }
}
