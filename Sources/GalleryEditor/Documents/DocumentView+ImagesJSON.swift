import FoundationEssentials
import GalleryFormat

// The `images` member of a view, written byte by byte with the format writer's pieces
// (`CanonicalJSONWriter+Bytes`): the writer's value tree allocates a dozen times an image, which
// at 100,000 images was most of a view's time. The bytes are those the format's writer gives
// (keys in byte order, compact, the same minimal escapes), which DocumentViewTests holds it to.
extension DocumentView {
    package static func imagesJSON(_ images: some Collection<GalleryImage>) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(images.count * 130 + 2)
        appendImagesJSON(images, to: &out) { _ in }
        return out
    }

    /// The same, appended to `out`, telling `started` where in `out` each image's object begins
    /// (FirstLooks keeps the list with those places, to cut it into the page's pieces unread).
    static func appendImagesJSON(_ images: some Collection<GalleryImage>, to out: inout [UInt8], started: (Int) -> Void) {
        out.append(0x5B)
        for (index, image) in images.enumerated() {
            if index > 0 { out.append(0x2C) }
            started(out.count)
            out.append(0x7B)
            if let caption = image.caption {
                member("caption", &out)
                string(caption, &out)
                out.append(0x2C)
            }
            if let filename = image.filename {
                member("filename", &out)
                string(filename, &out)
                out.append(0x2C)
            }
            member("height", &out)
            integer(image.height, &out)
            out.append(0x2C)
            member("id", &out)
            uuid(image.id, &out)
            out.append(0x2C)
            member("mediaType", &out)
            string(image.mediaType.rawValue, &out)
            out.append(0x2C)
            member("width", &out)
            integer(image.width, &out)
            out.append(0x7D)
        }
        out.append(0x5D)
    }

    private static func member(_ name: StaticString, _ out: inout [UInt8]) { CanonicalJSONWriter.appendKey(name, to: &out) }

    private static func uuid(_ id: UUID, _ out: inout [UInt8]) { CanonicalJSONWriter.appendUUID(id, to: &out) }

    private static func integer(_ value: Int, _ out: inout [UInt8]) { CanonicalJSONWriter.appendInteger(Int64(value), to: &out) }

    /// A JSON string with the format writer's escapes, by the format writer's own code.
    private static func string(_ text: String, _ out: inout [UInt8]) { CanonicalJSONWriter.appendString(text, to: &out) }
}
