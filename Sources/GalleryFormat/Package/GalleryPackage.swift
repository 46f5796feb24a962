/// Fixed names and bytes of the v1 container.
public enum GalleryPackage {
    public static let mediaType = "application/vnd.imagegallery+zip"
    public static let fileExtension = "imagegallery"
    public static let mimetypeEntry = "mimetype"
    public static let manifestEntry = "manifest.json"
    public static let thumbnailEntry = "thumbnail.png"
    public static let blobFolder = "images/"
    /// The longest side `thumbnail.png` may have.
    public static let maxThumbnailSide = 1024
}
