import Foundation
import GalleryFuzzing
import GalleryTestSupport
import Testing

/// Every input a fuzzer ever crashed on, and a small accepted and refused input of each target
/// (Fixtures/fuzz/TARGET/, which scripts/fuzz also seeds from), runs through the same target code
/// here, in every test run; and each target is shown to reach the code it is meant to.
@Suite("Fuzz targets")
struct FuzzRegressionTests {
    /// Each file's name says how its target must end it: `accepted-*` or `refused-*`. A folder
    /// that is missing or holds neither, or a file named otherwise, fails the test.
    @Test("Every recorded input ends cleanly, with the outcome its name gives", arguments: FuzzTarget.allCases)
    func regressions(target: FuzzTarget) throws {
        let folder = TestPaths.fixture("fuzz/" + target.rawValue)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasSuffix(".md") }.sorted()
        var (accepted, refused) = (0, 0)
        for name in names {
            let expected: FuzzOutcome
            if name.hasPrefix("accepted-") {
                expected = .accepted
            } else if name.hasPrefix("refused-") {
                expected = .refused
            } else {
                Issue.record("\(folder)/\(name): name it accepted-… or refused-…, after the outcome it must have")
                continue
            }
            let bytes = try #require(FileManager.default.contents(atPath: folder + "/" + name), "\(folder)/\(name)")
            // A trap here takes the test process down, which fails the run.
            #expect(target.run(Array(bytes)) == expected, "\(target): \(name)")
            if expected == .accepted { accepted += 1 } else { refused += 1 }
        }
        #expect(accepted > 0, "\(folder) holds no accepted-* input")
        #expect(refused > 0, "\(folder) holds no refused-* input")
    }

    @Test("Each target accepts a sound input and refuses a broken one", arguments: FuzzTarget.allCases)
    func reach(target: FuzzTarget) throws {
        let (sound, broken) = try Self.samples(for: target)
        #expect(target.run(sound) == .accepted, "\(target): a sound input was refused")
        #expect(target.run(broken) == .refused, "\(target): a broken input was accepted")
    }

    static func samples(for target: FuzzTarget) throws -> (sound: [UInt8], broken: [UInt8]) {
        let gallery = try read(TestPaths.fixture("valid/three.imagegallery"))
        let garbage = Array("not an image, not an archive, not JSON: \u{7}\u{0}\u{FF}".utf8)
        switch target {
        case .container:
            return (gallery, Array(gallery.prefix(gallery.count / 2)))
        case .manifest:
            let manifest = try read(TestPaths.fixture("valid/three.manifest.json"))
            return (manifest, Array(manifest.dropLast(3)))
        case .validator, .thumbnail:
            return (gallery, garbage)
        case .jpeg:
            let jpeg = try read(TestPaths.fixture("images/1-sunset.jpg"))
            return (jpeg, Array(jpeg.prefix(600)))
        case .png:
            let png = try read(TestPaths.fixture("images/2-tiles.png"))
            return (png, Array(png.prefix(png.count / 2)))
        case .archive:
            // A gallery is a zip of images, which is all the importer asks of an archive.
            return (gallery, garbage)
        case .headers:
            let heic = try read(TestPaths.fixture("format-2.0/sunset.heic"))
            return (heic, Array(heic.prefix(200)))
        case .colour:
            let profile = try read(TestPaths.fixture("fuzz/colour/accepted-display-p3.bin"))
            return (profile, Array(profile.prefix(profile.count - 8)))
        case .metadata:
            let photo = try read(TestPaths.fixture("fuzz/metadata/accepted-gps-identity-jpeg.bin"))
            return (photo, try read(TestPaths.fixture("fuzz/metadata/refused-no-metadata-jpeg.bin")))
        case .webp, .gif, .avif, .heic:
            let name = ["webp": "lossless-alpha.webp", "gif": "anim.gif", "avif": "rotated.avif", "heic": "bubbles.heic"][target.rawValue]!
            let image = try read(TestPaths.fixture("format-2.0/" + name))
            return (image, Array(image.prefix(image.count * 3 / 4)))
        }
    }

    static func read(_ path: String) throws -> [UInt8] {
        Array(try #require(FileManager.default.contents(atPath: path), "cannot read \(path)"))
    }
}
