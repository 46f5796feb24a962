/// Fixed names and bytes of the v1 container.
public enum GalleryPackage {
    /// The media type: the whole content of the `mimetype` entry, and what file managers match
    /// at byte 38 of the file.
    public static let mediaType = "application/vnd.imagegallery+zip"
    /// The file name extension, without its dot.
    public static let fileExtension = "imagegallery"
    /// The first entry, stored, holding exactly ``mediaType``.
    public static let mimetypeEntry = "mimetype"
    /// The entry holding the manifest: the gallery's title and ordered images, as canonical JSON.
    public static let manifestEntry = "manifest.json"
    /// The entry holding the 8-bit PNG thumbnail of the first image.
    public static let thumbnailEntry = "thumbnail.png"
    /// The folder of the blobs, each named by its SHA-256 (``GalleryImage/path``).
    public static let blobFolder = "images/"
    /// The longest side `thumbnail.png` may have.
    public static let maxThumbnailSide = 1024
}
