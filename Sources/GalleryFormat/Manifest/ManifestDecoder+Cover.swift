import FoundationEssentials

/// The `cover` member (format 1.1 and 2.1): an image's id, checked once the images are read.
extension ManifestDecoder {
    mutating func checkCover(_ cover: UUID?, version: FormatVersion, images: [GalleryImage],
                             _ scanner: borrowing JSONScanner) {
        guard let cover else { return }
        // A member of a minor version is that version's from then on (section 8), as a media type
        // is its major version's: a 1.0 writer never writes one.
        if version.minor < 1 {
            appendFinding(GalleryError(.badValue, "cover needs format version \(version.major).1 or later; the manifest "
                                       + "says \(version)", location: Location(
                                           entry: "manifest.json", offset: UInt64(scanner.offset), jsonPointer: "/cover")))
        }
        guard !images.contains(where: { $0.id == cover }) else { return }
        appendFinding(GalleryError(.coverNamesNoImage, "cover \(cover.manifestString) is the id of no image of the gallery",
                                   location: Location(entry: "manifest.json", offset: UInt64(scanner.offset),
                                                      jsonPointer: "/cover")))
    }
}
