import Foundation
import GalleryFormat
import GallerySystem
import GalleryTestSupport
import SystemPackage
import Testing

// `imagegallery convert` of the seed apps' JSON (Specs/seed-json.md), black-box: the built
// binary against the loopback server of FetchCommandTests.swift, with private cache folders.
// The JSON is written per test, since only then is the server's port known.

/// One image of a seed gallery to write: a fixture served under /images/, or any path.
private struct SeedEntry {
    var path: String
    var aspectRatio: Double?

    static func image(_ name: String, _ ratio: Double? = nil) -> SeedEntry { SeedEntry(path: "/images/" + name, aspectRatio: ratio) }
}

extension FetchWorkspace {
    /// A gallery object as JSONEncoder writes one ("/" escaped as "\/").
    fileprivate func seedGallery(_ title: String?, _ entries: [SeedEntry]) -> String {
        let images = entries.map { entry in
            let url = url(entry.path).replacingOccurrences(of: "/", with: "\\/")
            return "{\"url\":\"\(url)\"" + (entry.aspectRatio.map { ",\"aspectRatio\":\($0)" } ?? "") + "}"
        }
        return "{" + (title.map { "\"title\":\"\($0)\"," } ?? "") + "\"images\":[" + images.joined(separator: ",") + "]}"
    }

    fileprivate func writeSeed(_ name: String, _ json: String) throws -> String {
        let path = file(name)
        try FileBytes.write(Array(json.utf8), to: path)
        return path
    }

    /// The entries of a folder, hidden ones included, sorted.
    fileprivate func listing(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }
}

/// The `--json` report of a seed conversion.
private func seedReport(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) -> [String: Any] {
    guard let report = try? JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any] else {
        Issue.record("no JSON report on stdout: \(result.stdout) / \(result.stderr)", sourceLocation: sourceLocation)
        return [:]
    }
    return report
}

private func galleries(_ report: [String: Any]) -> [[String: Any]] { report["galleries"] as? [[String: Any]] ?? [] }

private func items(_ gallery: [String: Any]) -> [[String: Any]] { gallery["items"] as? [[String: Any]] ?? [] }

@Suite("Convert: the seed apps' JSON")
struct ConvertSeedJSONTests {
    @Test func aSingleGalleryBecomesOneFileWithTitleOrderSourcesAndBytes() async throws {
        let workspace = try FetchWorkspace()
        let input = try workspace.writeSeed("trip.json", workspace.seedGallery("Trip", [
            .image("1-sunset.jpg", 4.0 / 3.0), .image("3-lighthouse.jpg", 0.75), .image("2-tiles.png", 4.0 / 3.0),
            .image("5-balloon-rotated.jpg", 320.0 / 480.0),
        ]))
        let output = workspace.file("Trip.imagegallery")
        let result = try await workspace.run(["convert", input, output, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let gallery = try GalleryReader(path: output).gallery
        #expect(gallery.title == "Trip")
        let names = ["1-sunset.jpg", "3-lighthouse.jpg", "2-tiles.png", "5-balloon-rotated.jpg"]
        #expect(gallery.images.count == names.count)
        for (image, name) in zip(gallery.images, names) {
            try workspace.expect(image, in: output, is: name, source: workspace.url("/images/" + name))
        }
        // Every ratio agrees (the balloon's is of the upright image): no warning.
        #expect(!result.stderr.contains("aspectRatio"), "\(result.stderr)")
        #expect(names.allSatisfy { fetchedLine(result, for: workspace.url("/images/" + $0)) != nil }, "\(result.stderr)")

        let report = seedReport(result)
        #expect(report["form"] as? String == "gallery")
        #expect(report["failed"] as? Int == 0)
        let written = try #require(galleries(report).first)
        #expect(written["path"] as? String == output)
        #expect(written["title"] as? String == "Trip")
        #expect(written["id"] as? String == gallery.id.manifestString)
        #expect(items(written).map { $0["status"] as? String } == Array(repeating: "added", count: 4))
        #expect(items(written).map { $0["image"] as? String } == gallery.images.map(\.id.manifestString))
        #expect(items(written).map { $0["pointer"] as? String } == ["/images/0", "/images/1", "/images/2", "/images/3"])
        #expect(try await workspace.run(["validate", output]).status == 0)
    }

    @Test func aStoreBecomesAFolderOfGalleriesFetchedInOneBatch() async throws {
        let workspace = try FetchWorkspace()
        let json = "{\"galleries\":[" + [
            workspace.seedGallery("Trip", [.image("1-sunset.jpg", 4.0 / 3.0), .image("4-dunes.jpg", 1.6)]),
            workspace.seedGallery("Trip", [.image("6-bubbles.png", 1), .image("1-sunset.jpg")]),
            workspace.seedGallery("Patterns / tiles", [.image("7-quilt-palette.png", 1.5)]),
            workspace.seedGallery(nil, []),
        ].joined(separator: ",") + "]}"
        let input = try workspace.writeSeed("store.json", json)
        let output = workspace.file("galleries")
        let result = try await workspace.run(["convert", input, output, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(workspace.listing(output) == ["Patterns _ tiles.imagegallery", "Trip 2.imagegallery", "Trip.imagegallery",
                                             "store 4.imagegallery"])
        // Nothing left beside it: the temporary folder was renamed into place.
        #expect(workspace.listing(workspace.directory.path).filter { $0.hasPrefix(".") }.isEmpty)

        let expected: [(file: String, title: String, images: [String])] = [
            ("Trip.imagegallery", "Trip", ["1-sunset.jpg", "4-dunes.jpg"]),
            ("Trip 2.imagegallery", "Trip", ["6-bubbles.png", "1-sunset.jpg"]),
            ("Patterns _ tiles.imagegallery", "Patterns / tiles", ["7-quilt-palette.png"]),
            ("store 4.imagegallery", "store 4", []),
        ]
        for (file, title, names) in expected {
            let path = output + "/" + file
            let gallery = try GalleryReader(path: path).gallery
            #expect(gallery.title == title)
            #expect(gallery.images.count == names.count, "\(file)")
            for (image, name) in zip(gallery.images, names) {
                try workspace.expect(image, in: path, is: name, source: workspace.url("/images/" + name))
            }
            #expect(try await workspace.run(["validate", path]).status == 0, "\(file)")
        }
        // A URL in two galleries is fetched once.
        #expect(try workspace.server.requests("/images/1-sunset.jpg").count == 1)

        let report = seedReport(result)
        #expect(report["form"] as? String == "store")
        #expect(report["imageCount"] as? Int == 5)
        #expect(galleries(report).map { $0["path"] as? String } == expected.map { output + "/" + $0.file })
        #expect(galleries(report).map { $0["pointer"] as? String } == ["/galleries/0", "/galleries/1", "/galleries/2", "/galleries/3"])
    }

    @Test func anImageThatCannotBeFetchedIsReportedAndTheRestKept() async throws {
        let workspace = try FetchWorkspace()
        let missing = workspace.url("/images/no-such-image.jpg")
        let input = try workspace.writeSeed("trip.json", workspace.seedGallery("Trip", [
            .image("1-sunset.jpg"), .image("no-such-image.jpg", 1.5), .image("2-tiles.png"),
        ]))
        let output = workspace.file("trip.imagegallery")
        let result = try await workspace.run(["convert", input, output, "--json"])
        #expect(result.status == 4, "\(result.stderr)")
        #expect(failureReason(result, for: missing)?.contains("404") == true, "\(result.stderr)")
        let images = try workspace.images(output)
        #expect(images.count == 2)
        try workspace.expect(images.first, in: output, is: "1-sunset.jpg", source: workspace.url("/images/1-sunset.jpg"))
        try workspace.expect(images.last, in: output, is: "2-tiles.png", source: workspace.url("/images/2-tiles.png"))

        let report = seedReport(result)
        #expect(report["failed"] as? Int == 1)
        let reported = items(try #require(galleries(report).first))
        #expect(reported.map { $0["status"] as? String } == ["added", "failed", "added"])
        #expect(reported[1]["source"] as? String == missing)
        #expect(reported[1]["errorCode"] as? String == "http-status")
        #expect((reported[1]["error"] as? String)?.contains("404") == true)
        #expect(reported[1]["image"] == nil)
    }

    @Test func offlineServesASecondRunFromTheCacheWithoutARequest() async throws {
        let workspace = try FetchWorkspace()
        let names = ["3-lighthouse.jpg", "6-bubbles.png"]
        let input = try workspace.writeSeed("store.json", "[" + workspace.seedGallery("Sea", [.image(names[0])]) + ","
                                            + workspace.seedGallery("Bubbles", [.image(names[1])]) + "]")
        let first = try await workspace.run(["convert", input, workspace.file("online")])
        #expect(first.status == 0, "\(first.stderr)")
        try workspace.server.reset()

        let output = workspace.file("offline")
        // --offline wins over any --cache-policy.
        let result = try await workspace.run(["convert", input, output, "--cache-policy", "reload", "--offline", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let log = try workspace.server.log()
        #expect(log.isEmpty, "\(log)")
        let report = seedReport(result)
        #expect(galleries(report).flatMap(items).map { $0["origin"] as? String } == ["cache", "cache"])
        for (file, name) in zip(["Sea.imagegallery", "Bubbles.imagegallery"], names) {
            let path = output + "/" + file
            try workspace.expect(workspace.images(path).first, in: path, is: name, source: workspace.url("/images/" + name))
            // The same images give the same gallery, byte for byte.
            #expect(try FileBytes.read(path) == FileBytes.read(workspace.file("online/" + file)))
        }
    }

    @Test func offlineOnAnEmptyCacheReportsEveryImageAndWritesNothing() async throws {
        let workspace = try FetchWorkspace()
        let urls = ["1-sunset.jpg", "2-tiles.png"].map { workspace.url("/images/" + $0) }
        let input = try workspace.writeSeed("store.json", "[" + workspace.seedGallery("A", [.image("1-sunset.jpg")]) + ","
                                            + workspace.seedGallery("B", [.image("2-tiles.png")]) + "]")
        let output = workspace.file("out")
        let result = try await workspace.run(["convert", input, output, "--offline", "--json"])
        #expect(result.status == 5, "\(result.stderr)")
        #expect(PathKind.of(FilePath(output)) == .missing)
        #expect(workspace.listing(workspace.directory.path).filter { $0.hasPrefix(".") }.isEmpty)
        #expect(try workspace.server.log().isEmpty)
        for url in urls { #expect(failureReason(result, for: url) != nil, "\(url): \(result.stderr)") }
        #expect(result.stderr.contains("nothing was written"), "\(result.stderr)")
        let reported = reportItems(result)
        #expect(reported.map { $0["source"] as? String } == urls)
        #expect(reported.map { $0["errorCode"] as? String } == ["not-in-cache", "not-in-cache"])
    }

    @Test func anAspectRatioThatDisagreesIsAWarningAndTheImageIsKept() async throws {
        let workspace = try FetchWorkspace()
        let input = try workspace.writeSeed("wide.json", workspace.seedGallery("Wide", [.image("1-sunset.jpg", 2.0), .image("2-tiles.png", 1.34)]))
        let output = workspace.file("wide.imagegallery")
        let result = try await workspace.run(["convert", input, output, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let warnings = result.stderr.split(separator: "\n").filter { $0.contains("warning:") && $0.contains("aspectRatio") }
        #expect(warnings.count == 1, "\(result.stderr)")
        #expect(warnings.first?.contains("/images/0/aspectRatio") == true, "\(result.stderr)")
        #expect(warnings.first?.contains("800×600") == true, "\(result.stderr)")
        let reported = items(try #require(galleries(seedReport(result)).first))
        #expect(reported.first?["warning"] as? String != nil)
        #expect(reported.first?["width"] as? Int == 800)
        #expect(reported.last?["warning"] == nil)
        let images = try workspace.images(output)
        #expect(images.map(\.width) == [800, 480])
    }

    @Test func refusalsComeBeforeAnyRequest() async throws {
        let workspace = try FetchWorkspace()
        let store = try workspace.writeSeed("store.json", "[" + workspace.seedGallery("A", [.image("1-sunset.jpg")]) + "]")

        let malformed = try workspace.writeSeed("bad.json", "{\"title\":\"T\",\"images\":[{\"url\":\"" + workspace.url("/images/1-sunset.jpg")
                                                + "\",\"aspectRatio\":\"wide\"}]}")
        let bad = try await workspace.run(["convert", malformed, workspace.file("bad.imagegallery")])
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("bad.json: /images/0/aspectRatio: must be a number"), "\(bad.stderr)")

        let titled = try await workspace.run(["convert", store, workspace.file("titled"), "--title", "One"])
        #expect(titled.status == 64, "\(titled.stderr)")

        let occupied = workspace.file("occupied")
        try FileManager.default.createDirectory(atPath: occupied, withIntermediateDirectories: false)
        try FileBytes.write(Array("keep me".utf8), to: occupied + "/notes.txt")
        let exists = try await workspace.run(["convert", store, occupied])
        #expect(exists.status == 73, "\(exists.stderr)")
        // --force replaces a folder of galleries only, never one holding other things.
        let forced = try await workspace.run(["convert", store, occupied, "--force"])
        #expect(forced.status == 73, "\(forced.stderr)")
        #expect(workspace.listing(occupied) == ["notes.txt"])
        #expect(try workspace.server.log().isEmpty)
    }

    @Test func forceReplacesAnEarlierStoreFolderWhole() async throws {
        let workspace = try FetchWorkspace()
        let output = workspace.file("out")
        let first = try workspace.writeSeed("first.json", "[" + workspace.seedGallery("Old", [.image("4-dunes.jpg")]) + ","
                                            + workspace.seedGallery("Kept name", [.image("4-dunes.jpg")]) + "]")
        #expect(try await workspace.run(["convert", first, output]).status == 0)
        let second = try workspace.writeSeed("second.json", "[" + workspace.seedGallery("Kept name", [.image("10-fractal.jpg")]) + "]")
        let again = try await workspace.run(["convert", second, output])
        #expect(again.status == 73)
        let result = try await workspace.run(["convert", second, output, "--force"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(workspace.listing(output) == ["Kept name.imagegallery"])
        let path = output + "/Kept name.imagegallery"
        try workspace.expect(workspace.images(path).first, in: path, is: "10-fractal.jpg", source: workspace.url("/images/10-fractal.jpg"))
        #expect(workspace.listing(workspace.directory.path).filter { $0.hasPrefix(".") }.isEmpty)
    }
}
