import FoundationEssentials
import GalleryFormat

/// How people name an image on the command line.
public enum ImageReference {
    /// The image `reference` names in `gallery`: a position (1 is the first), an image id or a
    /// unique start of one (4 characters or more, either case), or a file name that exactly one
    /// image has, tried in that order. `path` names the document in errors.
    ///
    /// - Throws: ``DocumentError/Kind/noSuchImage`` when no image matches,
    ///   ``DocumentError/Kind/ambiguousImage`` when several do.
    public static func resolve(_ reference: String, in gallery: Gallery, path: String) throws -> GalleryImage {
        let images = gallery.images
        if let number = Int(reference) {
            guard (1 ... max(images.count, 1)).contains(number), !images.isEmpty else {
                throw DocumentError(.noSuchImage, path: path,
                                    "there is no image \(number): the gallery has \(images.count)")
            }
            return images[number - 1]
        }
        let lowered = reference.lowercased()
        var matches = images.filter { $0.id.manifestString == lowered }
        if matches.isEmpty, lowered.count >= 4, lowered.allSatisfy({ $0.isHexDigit || $0 == "-" }) {
            matches = images.filter { $0.id.manifestString.hasPrefix(lowered) }
        }
        if matches.isEmpty { matches = images.filter { $0.filename == reference } }
        switch matches.count {
        case 1: return matches[0]
        case 0: throw DocumentError(.noSuchImage, path: path, "no image is \"\(reference)\" (give a position, an id or a file name)")
        default:
            throw DocumentError(.ambiguousImage, path: path,
                                "\"\(reference)\" names \(matches.count) images; give a position or a longer id")
        }
    }
}
