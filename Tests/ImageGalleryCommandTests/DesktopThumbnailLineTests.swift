@testable import imagegallery
import Testing

/// The desktop's thumbnailer line is recognised, and taken past the argument parser, only in
/// exactly the form the `.thumbnailer` entry gives (`-s %s %i %o`); every other line is left to
/// the parser, which then gives its own messages.
@Suite("The desktop's thumbnail line")
struct DesktopThumbnailLineTests {
    @Test func theEntrysFormIsTakenDirectly() throws {
        let line = try #require(ImageGallery.Thumbnail.desktopLine(["thumbnail", "-s", "256", "/tmp/a b.imagegallery", "/tmp/out.png"]))
        #expect(line.size == 256)
        #expect(line.input == "/tmp/a b.imagegallery")
        #expect(line.output == "/tmp/out.png")
    }

    @Test(arguments: [
        ["thumbnail", "-s", "256", "in.imagegallery"],                       // no output
        ["thumbnail", "-s", "256", "--", "in.imagegallery", "out.png"],      // the parser's separator
        ["thumbnail", "-s", "0", "in.imagegallery", "out.png"],              // out of range: the parser says so
        ["thumbnail", "-s", "4097", "in.imagegallery", "out.png"],
        ["thumbnail", "-s", "+256", "in.imagegallery", "out.png"],
        ["thumbnail", "-s", "x", "in.imagegallery", "out.png"],
        ["thumbnail", "-s", "256", "-h", "out.png"],                         // an option where a path goes
        ["thumbnail", "-s", "256", "in.imagegallery", "--help"],
        ["thumbnail", "-s", "256", "-", "out.png"],                          // standard input is the parser's
        ["info", "-s", "256", "in.imagegallery", "out.png"],
    ])
    func everyOtherLineIsTheParsers(_ arguments: [String]) {
        #expect(ImageGallery.Thumbnail.desktopLine(arguments) == nil)
    }
}
