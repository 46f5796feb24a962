import ArgumentParser
import FoundationEssentials
import GalleryFormat
import GalleryImaging
import GallerySystem
import SystemPackage

extension ImageGallery {
    struct Thumbnail: ParsableCommand {
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

        static let sizes = 1 ... 4096

        func validate() throws {
            guard Self.sizes.contains(size) else { throw ValidationError("-s must be 1 to 4096") }
        }

        func run() throws {
            try Self.write(size: size, of: input, to: output)
        }

        /// The thumbnail of the gallery at `input`, `size` pixels on its long side, written in
        /// place to `output`: the work of the command, whichever way its line was parsed.
        static func write(size: Int, of input: String, to output: String) throws {
            var limits = GalleryThumbnail.readingLimitsFittingAddressSpace()
            limits.writesPNG = true
            // libjpeg's own allocations stay under the same cap as ours.
            CurrentProcess.setEnvironment("JPEGMEM", "\(limits.maxBytes >> 20)M", replacing: true)
            // A fallback (the embedded thumbnail smaller than asked, or the grey placeholder) is said
            // in one line; the confined thumbnailer serves the same quietly.
            let bitmap = try GalleryThumbnail.bitmap(ofGalleryAt: input, longSide: size, limits: limits) { notice in
                Terminal.writeError("imagegallery: warning: \(Terminal.neutralised(notice))\n")
            }
            let file = try GalleryFile.openForOverwriting(FilePath(output))
            try file.write(bitmap.png(), at: 0)
        }

        /// The desktop's command line, `thumbnail -s SIZE INPUT OUTPUT` (the thumbnailer entry's
        /// `-s %s %i %o`), as size, input and output; nil for any other line, which the
        /// argument parser then reads. The desktop runs it for every gallery it shows, and the
        /// parser took longer than serving an embedded thumbnail (Benchmarks/RESULTS.md, i).
        static func desktopLine(_ arguments: [String]) -> (size: Int, input: String, output: String)? {
            guard arguments.count == 5, arguments[0] == "thumbnail", arguments[1] == "-s",
                  let size = Int(arguments[2]), sizes.contains(size), arguments[2].first != "+",
                  !arguments[3].hasPrefix("-"), !arguments[4].hasPrefix("-") else { return nil }
            return (size, arguments[3], arguments[4])
        }
    }
}
