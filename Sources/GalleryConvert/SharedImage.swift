import GalleryFormat
import GalleryMetadata

/// An image as a conversion shares it: read, checked, and stripped of what `--strip` names.
enum SharedImage {
    /// The image's bytes without `strip`'s metadata.
    ///
    /// - Throws: ``ConversionError`` naming the gallery and the image, when it cannot be read or
    ///   its metadata cannot be removed (with `--strip none` as the way out).
    static func bytes(of image: GalleryImage, at index: Int, from reader: GalleryReader, gallery path: String,
                      strip: MetadataScope) throws -> [UInt8] {
        try stripped(image, place: "image \(index + 1) (\(image.mediaType.name))", from: reader, gallery: path, strip: strip).bytes
    }

    /// The image's bytes without `strip`'s metadata and the fields removed, errors naming `place`.
    static func stripped(_ image: GalleryImage, place: String, from reader: GalleryReader, gallery path: String,
                         strip: MetadataScope) throws -> (bytes: [UInt8], removed: [String]) {
        do {
            return try ImageMetadata.shared(image, from: reader, scope: strip)
        } catch let error as GalleryError {
            throw ConversionError(path, entry: place, "\(error.code.id): \(error.message)", underlying: error)
        } catch let error as MetadataError {
            throw ConversionError(path, entry: place, "its \(strip.description) cannot be removed: \(error.description); "
                                  + "--strip none writes the originals as they are", underlying: error)
        }
    }
}
