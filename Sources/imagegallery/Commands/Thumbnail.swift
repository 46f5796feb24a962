import ArgumentParser
import Foundation
import GalleryFormat
import GalleryImaging

extension ImageGallery {
    struct Thumbnail: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "thumbnail",
            abstract: "Write a PNG thumbnail of a gallery (the freedesktop thumbnailer: -s %s %i %o).",
            discussion: """
                Uses the gallery's embedded thumbnail when it is sound and large enough, so no photo is decoded; \
                otherwise decodes the first image at the smallest scale that covers SIZE. OUTPUT is written in \
                place (file managers read back the file they created). Every input is treated as hostile: \
                decoding stays within pixel and memory limits, and a broken gallery gives exit 65, never a crash.
                """
        )

        @Option(name: .customShort("s"), help: "The longest side of the thumbnail, in pixels.")
        var size = 256

        @Argument(help: "The gallery.")
        var input: String

        @Argument(help: "The PNG to write.")
        var output: String

        func validate() throws {
            guard (1 ... 4096).contains(size) else { throw ValidationError("-s must be 1 to 4096") }
        }

        func run() async throws {
            let limits = GalleryThumbnail.readingLimitsFittingAddressSpace()
            // libjpeg's own allocations stay under the same cap as ours.
            setenv("JPEGMEM", "\(limits.maxBytes >> 20)M", 1)
            let bitmap = try GalleryThumbnail.bitmap(ofGalleryAt: input, longSide: size, limits: limits)
            let file = try GalleryFile.openForOverwriting(output)
            try file.write(bitmap.png(), at: 0)
        }
    }
}
