import Foundation
import GalleryTestSupport
import Testing

/// What a shared web gallery carries (issue 33): renditions in `srcset`, `<figure>` captions,
/// JSON-LD, Open Graph tags only with `--base-url` (which is checked), and the index's weight.
@Suite("Web gallery sharing")
struct WebGallerySharingTests {
    static func imagegallery(_ arguments: [String]) async throws -> ProcessResult {
        try await Blocking.run { try Subprocess.imagegallery(arguments) }
    }

    /// A PNG with a `Description` text chunk, which `create` makes the caption.
    static func png(seed: Int, width: UInt32, height: UInt32, caption: String) -> [UInt8] {
        let plain = PNGBytes.image(seed: seed, width: width, height: height)
        let text = PNGBytes.chunk("tEXt", Array("Description\0\(caption)".utf8))
        return Array(plain.prefix(33)) + text + plain.dropFirst(33)
    }

    /// A gallery of `count` images `width` × `height`, captioned "Photo N".
    static func gallery(in directory: TemporaryDirectory, count: Int, width: UInt32, height: UInt32) async throws -> String {
        var paths: [String] = []
        for number in 1 ... count {
            let path = directory.file(String(format: "%03d.png", number))
            try FileBytes.write(png(seed: number, width: width, height: height, caption: "Photo \(number)"), to: path)
            paths.append(path)
        }
        let gallery = directory.file("g.imagegallery")
        let created = try await imagegallery(["create", gallery, "--title", "Shared"] + paths)
        try #require(created.status == 0, "\(created.stderr)")
        return gallery
    }

    static func structuredData(_ index: String) throws -> [String: Any] {
        let start = try #require(index.range(of: "<script type=\"application/ld+json\">"))
        let end = try #require(index.range(of: "</script>", range: start.upperBound ..< index.endIndex))
        let json = Data(index[start.upperBound ..< end.lowerBound].utf8)
        return try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
    }

    @Test(arguments: ["ftp://example.org/", "example.org/holiday", "/var/www", "https://", "https://exa mple.org/",
                      "https://example.org/?a=1", "https://user@example.org/", "javascript:alert(1)"])
    func aBaseURLThatIsNotAnAbsoluteHTTPAddressIsRefusedNamingTheOption(_ address: String) async throws {
        let directory = try TemporaryDirectory()
        let result = try await Self.imagegallery(["convert", TestPaths.fixture("valid/three.imagegallery"), directory.file("web"),
                                                  "--to", "web", "--base-url", address])
        #expect(result.status == 64, "\(address): \(result.stderr)")
        #expect(result.stderr.contains("--base-url"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("web")))
    }

    @Test func aBaseURLIsForTheWebGalleryOnly() async throws {
        let directory = try TemporaryDirectory()
        let result = try await Self.imagegallery(["convert", TestPaths.fixture("valid/three.imagegallery"), directory.file("out"),
                                                  "--to", "unpacked", "--base-url", "https://example.org/"])
        #expect(result.status == 64 && result.stderr.contains("--base-url is for --to web only"), "\(result.stderr)")
    }

    @Test func theIndexCarriesJSONLDAndTheSharingTagsOnlyWithABaseURL() async throws {
        let directory = try TemporaryDirectory()
        let gallery = try await Self.gallery(in: directory, count: 3, width: 2100, height: 300)
        let plain = directory.file("plain"), shared = directory.file("shared")
        #expect(try await Self.imagegallery(["convert", gallery, plain, "--to", "web"]).status == 0)
        let made = try await Self.imagegallery(["convert", gallery, shared, "--to", "web", "--base-url", "https://example.org/trip"])
        #expect(made.status == 0, "\(made.stderr)")

        let plainIndex = try String(contentsOfFile: plain + "/index.html", encoding: .utf8)
        let sharedIndex = try String(contentsOfFile: shared + "/index.html", encoding: .utf8)
        #expect(!plainIndex.contains("og:") && !plainIndex.contains("twitter:"), "no address, no sharing tags")
        for tag in ["<meta property=\"og:image\" content=\"https://example.org/trip/sized/001-1024.jpg\">",
                    "<meta property=\"og:title\" content=\"Shared\">", "<meta name=\"twitter:card\" content=\"summary_large_image\">",
                    "<meta property=\"og:url\" content=\"https://example.org/trip/index.html\">"] {
            #expect(sharedIndex.contains(tag), "\(tag)")
        }

        for (index, url) in [(plainIndex, nil), (sharedIndex, "https://example.org/trip/")] {
            let data = try Self.structuredData(index)
            #expect(data["url"] as? String == url)
            #expect(data["@context"] as? String == "https://schema.org" && data["@type"] as? String == "ImageGallery")
            #expect(data["name"] as? String == "Shared" && data["numberOfItems"] as? Int == 3)
            let media = try #require(data["associatedMedia"] as? [[String: Any]])
            #expect(media.count == 3)
            for (offset, item) in media.enumerated() {
                let number = String(format: "%03d", offset + 1)
                #expect(item["@type"] as? String == "ImageObject")
                #expect(item["contentUrl"] as? String == "images/\(number).png")
                #expect(item["thumbnailUrl"] as? String == "thumbs/\(number).png")
                #expect(item["width"] as? Int == 2100 && item["height"] as? Int == 300)
                #expect(item["caption"] as? String == "Photo \(offset + 1)")
            }
        }
        // Renditions up to 1,024 px, never the original, in every tile's srcset; all three, with
        // the thumbnail, in the slideshow's list; the caption a figcaption, the alt text not the caption.
        #expect(plainIndex.contains("srcset=\"sized/001-480.jpg 480w, sized/001-1024.jpg 1024w\""), "\(plainIndex)")
        #expect(try String(contentsOfFile: plain + "/assets/gallery-data.js", encoding: .utf8).contains(
            "\"srcset\": \"thumbs/001.png 256w, sized/001-480.jpg 480w, sized/001-1024.jpg 1024w, sized/001-2048.jpg 2048w\""))
        #expect(plainIndex.contains("<figcaption>Photo 2</figcaption>"))
        #expect(plainIndex.contains("alt=\"Image 2 of 3\""))
        #expect(try PNGBytes.size(ofFile: plain + "/thumbs/001.png").map { [$0.width, $0.height] } == [256, 37])
        // The original stays the download on its page.
        #expect(try String(contentsOfFile: plain + "/pages/002.html", encoding: .utf8).contains("href=\"../images/002.png\">original"))
    }

    @Test func aSmallImageIsNeverEnlargedAndIsItsOwnLargestCandidate() async throws {
        let directory = try TemporaryDirectory()
        let gallery = try await Self.gallery(in: directory, count: 1, width: 800, height: 600)
        let web = directory.file("web")
        #expect(try await Self.imagegallery(["convert", gallery, web, "--to", "web"]).status == 0)
        let index = try String(contentsOfFile: web + "/index.html", encoding: .utf8)
        #expect(index.contains("srcset=\"sized/001-480.jpg 480w, images/001.png 800w\""), "\(index)")
        #expect(!FileManager.default.fileExists(atPath: web + "/sized/001-1024.jpg"))
    }

    /// The index of 200 images with short captions, with the style sheet and scripts it loads,
    /// under 100 KB before any picture. The images are 2,100 px wide (so that every rendition,
    /// and the longest srcset, exists) and a few pixels high (so that the test is quick).
    @Test func theIndexOfTwoHundredImagesWithItsStyleAndScriptsIsUnder100KB() async throws {
        let directory = try TemporaryDirectory()
        let gallery = try await Self.gallery(in: directory, count: 200, width: 2100, height: 8)
        let web = directory.file("web")
        let made = try await Self.imagegallery(["convert", gallery, web, "--to", "web", "--base-url", "https://example.org/holiday/"])
        try #require(made.status == 0, "\(made.stderr)")
        let index = try String(contentsOfFile: web + "/index.html", encoding: .utf8)
        #expect(try String(contentsOfFile: web + "/assets/gallery-data.js", encoding: .utf8).contains("sized/200-2048.jpg 2048w"),
                "every rendition is made, and listed for the slideshow")
        // The first rows load at once, the rest when scrolled to.
        let tiles = index.split(separator: "\n").filter { $0.hasPrefix("<li><figure>") }
        #expect(tiles.count == 200 && tiles.prefix(12).allSatisfy { !$0.contains("loading=") }
                && tiles.dropFirst(12).allSatisfy { $0.contains("loading=\"lazy\"") })
        // What the index loads before pictures: itself and every script and style sheet it names.
        let loaded = index.matches(of: /(?:<script src|<link rel="stylesheet" href)="([^"]+)"/).map { String($0.output.1) }
        // The slideshow's script and data come on the first Play (gallery.js), after pictures.
        #expect(loaded.sorted() == ["assets/gallery.css", "assets/gallery.js"])
        var total = try FileBytes.read(web + "/index.html").count
        for name in loaded { total += try FileBytes.read(web + "/" + name).count }
        #expect(total < 100_000, "the index with its style and scripts is \(total) bytes")
        print("web gallery index of 200 images with its style and scripts: \(total) bytes")
    }
}
