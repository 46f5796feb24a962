/// The image types a v1 gallery may hold.
public enum MediaType: String, Sendable, CaseIterable, Codable {
    /// JPEG; blobs are named `.jpg`.
    case jpeg = "image/jpeg"
    /// PNG; blobs are named `.png`.
    case png = "image/png"

    /// The extension of the blob's entry name.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        }
    }

    /// The type the leading bytes say, or nil when they are neither JPEG nor PNG.
    public static func sniff(_ prefix: some Collection<UInt8>) -> MediaType? {
        let head = Array(prefix.prefix(8))
        if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF { return .jpeg }
        if head == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] { return .png }
        return nil
    }
}
