import Foundation
import GalleryFormat
import GalleryImageHeaders
import GalleryTestSupport
import Testing

/// Phones make 108- and 200-megapixel photos. The pixel limit bounds what a decode holds, at
/// the DCT scale it decodes at, so such a photo first in a gallery gets a real thumbnail at
/// every size file managers ask for, within the thumbnailer's memory budget.
@Suite("Thumbnails of very large photos")
struct LargePhotoThumbnailTests {
    /// A flat-coloured JPEG of the given size, baseline or progressive, written by Pillow.
    static func photo(width: Int, height: Int, colour: (Int, Int, Int), progressive: Bool = false, to path: String) throws {
        let script = "from PIL import Image; Image.new('RGB', (\(width), \(height)), \(colour))"
            + ".save('\(path)', quality=85, progressive=\(progressive ? "True" : "False"))"
        let result = try Subprocess.run("/usr/bin/python3", ["-c", script])
        guard result.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSDebugDescriptionErrorKey: result.stderr]) }
    }

    /// The size and centre pixel of a PNG, read by Pillow.
    static func inspect(_ png: String) throws -> (width: Int, height: Int, centre: [Int]) {
        let script = "from PIL import Image; im = Image.open('\(png)').convert('RGB'); "
            + "print(im.size[0], im.size[1], *im.getpixel((im.size[0] // 2, im.size[1] // 2)))"
        let result = try Subprocess.run("/usr/bin/python3", ["-c", script])
        let numbers = result.stdout.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard result.status == 0, numbers.count == 5 else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSDebugDescriptionErrorKey: result.stdout + result.stderr])
        }
        return (numbers[0], numbers[1], Array(numbers[2...]))
    }

    static func close(_ pixel: [Int], _ colour: (Int, Int, Int)) -> Bool {
        zip(pixel, [colour.0, colour.1, colour.2]).allSatisfy { abs($0 - $1) <= 6 }
    }

    @Test("create stores a real thumbnail and thumbnail -s 256/512/1024 succeeds under a 256 MiB cap",
          arguments: [(12000, 9000), (16330, 12248)])
    func largePhoto(size: (Int, Int)) throws {
        let binary = try TestPaths.staticBinary()
        let directory = try TemporaryDirectory()
        let colour = (200, 120, 40)
        let jpeg = directory.file("photo.jpg")
        try Self.photo(width: size.0, height: size.1, colour: colour, to: jpeg)
        let gallery = directory.file("photo.imagegallery")
        let created = try Subprocess.run(binary, ["create", gallery, jpeg])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(!created.stderr.contains("grey"), "create stored the placeholder: \(created.stderr)")

        // The stored thumbnail is the photo made small, not the grey placeholder.
        let stored = directory.file("stored.png")
        let reader = try GalleryReader(path: gallery)
        try FileBytes.write(try reader.thumbnail(), to: stored)
        #expect(Self.close(try Self.inspect(stored).centre, colour), "the stored thumbnail is not the photo")

        for side in [256, 512, 1024] {
            let output = directory.file("thumbnail-\(side).png")
            let result = try Subprocess.run("/usr/bin/prlimit", ["--as=\(256 << 20)", binary, "thumbnail", "-s", "\(side)",
                                                                 gallery, output])
            #expect(result.status == 0, "-s \(side): exit \(result.status): \(result.stderr)")
            guard result.status == 0 else { continue }
            let made = try Self.inspect(output)
            #expect(max(made.width, made.height) == side, "-s \(side): \(made.width)×\(made.height)")
            #expect(Self.close(made.centre, colour), "-s \(side): centre pixel \(made.centre)")
        }
    }

    @Test("A first image that cannot be decoded gets the embedded thumbnail, even if smaller than asked")
    func embeddedFallback() throws {
        let binary = try TestPaths.staticBinary()
        let directory = try TemporaryDirectory()
        // A progressive JPEG keeps every coefficient until its last scan: for 108 megapixels
        // about 300 MiB, past the budget at any scale.
        let jpeg = directory.file("huge.jpg")
        try Self.photo(width: 12000, height: 9000, colour: (40, 120, 200), progressive: true, to: jpeg)
        let gallery = directory.file("huge.imagegallery")
        let created = try Subprocess.run(binary, ["create", gallery, jpeg])
        #expect(created.status == 0, "\(created.stderr)")
        let embedded = try ImageHeader.parse(try GalleryReader(path: gallery).thumbnail())
        let asked = max(embedded.width, embedded.height) * 2
        let output = directory.file("out.png")
        let result = try Subprocess.run(binary, ["thumbnail", "-s", "\(asked)", gallery, output])
        #expect(result.status == 0, "\(result.stderr)")
        guard result.status == 0 else { return }
        let served = try ImageHeader.parse(try FileBytes.read(output))
        #expect(served.width == embedded.width && served.height == embedded.height)
    }
}
