import GalleryFormat

extension ImageMetadata {
    /// An image of a gallery as it is to be shared: its bytes read (and checked against the
    /// manifest) and stripped of `scope`, with the fields removed. With an empty scope, the
    /// bytes as they are.
    ///
    /// - Throws: what reading the blob throws (`GalleryError`), and ``MetadataError`` when its
    ///   metadata cannot be rewritten safely: the caller decides whether to share it as it is.
    public static func shared(_ image: GalleryImage, from reader: GalleryReader,
                              scope: MetadataScope) throws -> (bytes: [UInt8], removed: [String]) {
        let bytes = try PrivacySurvey.bytes(of: image, in: reader)
        guard !scope.isEmpty else { return (bytes, []) }
        let strip = try strip(bytes, type: image.mediaType, scope: scope)
        return (strip.bytes ?? bytes, strip.removed)
    }
}
