// manifest-open-imagegallery FILE: opens a gallery with this project's GalleryReader, as
// `imagegallery info` and `list` do, and prints the number of images. Its twin,
// manifest-open-zipfoundation, does the same with ZIPFoundation and JSONDecoder;
// Benchmarks/zipfoundation.sh times the two.
//
// What this side checks and the other does not: `mimetype`; every entry's local header,
// against its central directory header; duplicate names, overlapping entries, hidden local
// headers, bytes between entries, data descriptors on stored entries (IG-PKG-*); the
// manifest's size, nesting depth and member counts, bounded while it inflates and parses;
// duplicate JSON keys and lone surrogates; every schema rule of the manifest (date-times,
// digests, `path` against `sha256`, ranges, unique image ids). Both check the manifest's
// CRC-32.
import Foundation
import GalleryFormat

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: manifest-open-imagegallery FILE\n".utf8))
    exit(64)
}
do {
    print(try GalleryReader(path: arguments[1]).gallery.images.count)
} catch {
    FileHandle.standardError.write(Data("manifest-open-imagegallery: \(error)\n".utf8))
    exit(1)
}
