import ArgumentParser
import Foundation
import GalleryFormat
import GalleryImaging

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

        func validate() throws {
            guard (1 ... 4096).contains(size) else { throw ValidationError("-s must be 1 to 4096") }
        }

        /// `thumbnail -s SIZE INPUT OUTPUT` or `thumbnail INPUT OUTPUT`, exactly as a thumbnailer
        /// entry writes it; nil for anything else, which the argument parser then handles.
        static func quickParse(_ arguments: [String]) -> Thumbnail? {
            guard arguments.first == "thumbnail" else { return nil }
            var rest = Array(arguments.dropFirst())
            var size = 256
            if rest.count == 4, rest[0] == "-s", let value = Int(rest[1]), (1 ... 4096).contains(value) {
                size = value
                rest.removeFirst(2)
            }
            guard rest.count == 2, !rest[0].hasPrefix("-"), !rest[1].hasPrefix("-") else { return nil }
            var command = Thumbnail()
            command.size = size
            command.input = rest[0]
            command.output = rest[1]
            return command
        }

        func run() throws {
            try reportingFailures {
                // libjpeg's own allocations stay under the same cap as ours.
                setenv("JPEGMEM", "\(Self.limits.maxBytes >> 20)M", 1)
                let bitmap = try Self.thumbnail(of: input, longSide: size)
                let file = try GalleryFile.openForOverwriting(output)
                try file.write(bitmap.png(), at: 0)
            }
        }

        static let limits = DecodeLimits(maxPixels: 100_000_000, maxBytes: 192 << 20)

        /// The embedded thumbnail when it is sound and as large as wanted (or as large as it can
        /// be), else the first image.
        static func thumbnail(of path: String, longSide: Int) throws -> Bitmap {
            let reader = try GalleryReader(path: path)
            let first = reader.gallery.images.first
            if let embedded = try? reader.thumbnail(limit: 4 << 20),
               let header = try? ImageHeader.parse(embedded),
               header.mediaType == .png, header.bitDepth == 8, !header.interlaced,
               max(header.width, header.height) <= GalleryPackage.maxThumbnailSide {
                let embeddedSide = max(header.width, header.height)
                // Large enough, or as large as the format allows for this image; or the only picture.
                let enough = embeddedSide >= longSide || first == nil
                    || embeddedSide >= min(GalleryPackage.maxThumbnailSide, max(first!.width, first!.height))
                if enough, let bitmap = try? Thumbnailer.thumbnail(of: embedded, longSide: longSide, limits: limits) {
                    return bitmap
                }
            }
            guard let first else {
                throw GalleryError(.thumbnailMissing, "the gallery has no images and no usable thumbnail.png",
                                   location: Location(file: path))
            }
            guard first.byteSize <= UInt64(limits.maxBytes / 2) else {
                throw GalleryError(.blobPastDecodeLimit, "the first image holds \(first.byteSize) bytes, more than a "
                                   + "thumbnailer reads", location: Location(file: path, entry: first.path))
            }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(Int(first.byteSize))
            try reader.readBlob(first) { bytes.append(contentsOf: $0) }
            do {
                return try Thumbnailer.thumbnail(of: bytes, longSide: longSide, limits: limits)
            } catch let error as ImageDecodeError {
                throw GalleryError(error.kind == .pastLimit ? .blobPastDecodeLimit : .blobPixelsCorrupt,
                                   "the first image cannot be thumbnailed: \(error.message)",
                                   location: Location(file: path, entry: first.path))
            }
        }
    }
}
