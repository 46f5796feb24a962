// manifest-open-zipfoundation FILE: opens a gallery with ZIPFoundation 0.9.20, extracts
// `manifest.json` into memory, decodes it with Foundation's JSONDecoder into a Codable mirror of
// the manifest, and prints the number of images. Its twin, manifest-open-imagegallery, does
// the same with this project's GalleryReader; Benchmarks/zipfoundation.sh times the two.
//
// What this side checks: the end of central directory record, the central directory headers
// and local headers of the entries up to `manifest.json` (ZIPFoundation walks the central
// directory from the start and stops at the first entry of that name), the manifest's CRC-32
// (computed by ZIPFoundation, compared here as its own `unzipItem` does), JSON syntax, and the
// Codable types below (UUIDs parsed; the media type one of two values). What it does not
// check, and GalleryReader does: see Benchmarks/RESULTS.md, section n.
import Foundation
import ZIPFoundation

/// A Codable mirror of the manifest (Specs/imagegallery-format.md, sections 6.3 and 6.4; the
/// model is Sources/GalleryFormat/Model/Gallery.swift). Date-times and digests stay strings:
/// JSONDecoder's `.iso8601` strategy refuses the fractions that section 6.5.2 allows.
struct ManifestMirror: Decodable {
    var format: String
    var formatVersion: String
    var id: UUID
    var revision: UUID
    var title: String
    var created: String
    var modified: String
    var generator: String?
    var images: [Image]

    struct Image: Decodable {
        var id: UUID
        var path: String
        var mediaType: MediaType
        var width: Int
        var height: Int
        var byteSize: UInt64
        var sha256: String
        var source: String?
        var filename: String?
        var caption: String?
        var added: String?
    }

    enum MediaType: String, Decodable {
        case jpeg = "image/jpeg"
        case png = "image/png"
    }
}

struct Failure: Error, CustomStringConvertible {
    var description: String
}

func imageCount(_ path: String) throws -> Int {
    let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
    guard let entry = archive["manifest.json"] else { throw Failure(description: "the archive has no manifest.json") }
    var data = Data()
    data.reserveCapacity(Int(clamping: entry.uncompressedSize))
    let crc = try archive.extract(entry, consumer: { data.append($0) })
    guard crc == entry.checksum else { throw Failure(description: "manifest.json fails its CRC-32") }
    let manifest = try JSONDecoder().decode(ManifestMirror.self, from: data)
    guard manifest.format == "imagegallery" else { throw Failure(description: "not an imagegallery manifest") }
    return manifest.images.count
}

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: manifest-open-zipfoundation FILE\n".utf8))
    exit(64)
}
do {
    print(try imageCount(arguments[1]))
} catch {
    FileHandle.standardError.write(Data("manifest-open-zipfoundation: \(error)\n".utf8))
    exit(1)
}
