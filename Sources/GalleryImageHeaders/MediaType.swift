/// The image types a gallery holds (format section 5): JPEG and PNG since 1.0; WebP, GIF,
/// AVIF and HEIC since 2.0.
public enum MediaType: String, Sendable, CaseIterable, Codable {
    /// JPEG; blobs are named `.jpg`.
    case jpeg = "image/jpeg"
    /// PNG; blobs are named `.png`.
    case png = "image/png"
    /// WebP, still or animated; blobs are named `.webp`. Format 2.0.
    case webp = "image/webp"
    /// GIF, still or animated; blobs are named `.gif`. Format 2.0.
    case gif = "image/gif"
    /// AVIF: HEIF whose primary item is AV1; blobs are named `.avif`. Format 2.0.
    case avif = "image/avif"
    /// HEIC: HEIF whose primary item is HEVC; blobs are named `.heic`. Format 2.0.
    case heic = "image/heic"

    /// The extension of the blob's entry name.
    public var fileExtension: String { String(blobSuffix.description.dropFirst()) }

    /// The end of the blob's entry name, dot included: static, for the manifest reader's
    /// byte comparisons.
    package var blobSuffix: StaticString {
        switch self {
        case .jpeg: ".jpg"
        case .png: ".png"
        case .webp: ".webp"
        case .gif: ".gif"
        case .avif: ".avif"
        case .heic: ".heic"
        }
    }

    /// The type's name as people say it: "JPEG", "WebP", "HEIC".
    public var name: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        case .webp: "WebP"
        case .gif: "GIF"
        case .avif: "AVIF"
        case .heic: "HEIC"
        }
    }

    /// The type's name with its article: "a WebP image", "an AVIF image".
    public var described: String { (self == .avif ? "an " : "a ") + name + " image" }

    /// Whether web browsers show the type as it is: all but HEIC, which the web gallery and the
    /// editor show through a JPEG rendition (the original stays what is downloaded).
    public var browsersShow: Bool { self != .heic }

    /// The type the leading bytes say, or nil when they are none of the six. AVIF and HEIC
    /// share their magic (an ISOBMFF `ftyp` box) and are told apart here by its brands; the
    /// header reader then holds the file to the codec of its primary item (section 5).
    public static func sniff(_ prefix: some Collection<UInt8>) -> MediaType? {
        if case .supported(let type) = ImageKind.identify(prefix) { return type }
        return nil
    }

    /// "JPEG, PNG and WebP": the types named in a sentence, in the order of `allCases`.
    public static func names(_ types: some Sequence<MediaType>) -> String {
        let names = allCases.filter(Set(types).contains).map(\.name)
        guard names.count > 1 else { return names.first ?? "no type" }
        return names.dropLast().joined(separator: ", ") + " and " + names.last!
    }
}
