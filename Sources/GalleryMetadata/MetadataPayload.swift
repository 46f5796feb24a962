// The metadata payloads every container carries in its own wrapping (a JPEG segment, a PNG
// chunk, a WebP chunk, a GIF extension, a HEIF item): read for a report, edited for a strip.
// One piece of code per payload, whatever holds it.

/// What a strip does to one payload.
enum PayloadEdit: Equatable {
    case keep
    case replace([UInt8])
    case drop
}

enum MetadataPayload {
    // MARK: EXIF

    static func reportExif(_ tiff: [UInt8], at offset: Int, into privacy: inout ImagePrivacy) {
        do {
            try ExifBlock(tiff).report(into: &privacy)
        } catch {
            privacy.problems.append("the EXIF block at byte \(offset) cannot be read: \(message(error))")
        }
    }

    /// All metadata leaves an orientation-only block (or none when the image is upright).
    static func editExif(_ tiff: [UInt8], at offset: Int, scope: MetadataScope) throws -> PayloadEdit {
        do {
            var block = try ExifBlock(tiff)
            if scope.contains(.allMetadata) {
                return block.orientation.map { $0 == 1 ? .drop : .replace(ExifBlock.orientationOnly($0)) } ?? .drop
            }
            return block.strip(scope) ? .replace(block.bytes) : .keep
        } catch {
            throw MetadataError("the EXIF block at byte \(offset) cannot be read: \(message(error))",
                                offset: offset)
        }
    }

    // MARK: XMP

    static func reportXMP(_ packet: [UInt8], at offset: Int, into privacy: inout ImagePrivacy) {
        do {
            try XMPPacket(packet).report(into: &privacy)
        } catch {
            privacy.problems.append("the XMP packet at byte \(offset) cannot be read: \(message(error))")
        }
    }

    static func editXMP(_ packet: [UInt8], at offset: Int, scope: MetadataScope, extendedGone: Bool = false) throws -> PayloadEdit {
        if scope.contains(.allMetadata) { return .drop }
        do {
            let xmp = try XMPPacket(packet)
            let doomed = xmp.doomed(by: scope, extendedGone: extendedGone)
            return doomed.isEmpty ? .keep : .replace(xmp.removing(doomed))
        } catch {
            throw MetadataError("the XMP packet at byte \(offset) cannot be read: \(message(error))",
                                offset: offset)
        }
    }

    /// Whether a packet (extended XMP, joined) holds anything `scope` removes; unreadable counts.
    static func xmpHolds(_ packet: [UInt8], scope: MetadataScope) -> Bool {
        guard let xmp = try? XMPPacket(packet) else { return true }
        return !xmp.doomed(by: scope).isEmpty
    }

    // MARK: IPTC

    static func reportPhotoshop(_ segment: [UInt8], at offset: Int, into privacy: inout ImagePrivacy) {
        do {
            try PhotoshopResources(segment: segment).report(into: &privacy)
        } catch {
            privacy.problems.append("the IPTC data at byte \(offset) cannot be read: \(message(error))")
        }
    }

    static func editPhotoshop(_ segment: [UInt8], at offset: Int, scope: MetadataScope) throws -> PayloadEdit {
        if scope.contains(.allMetadata) { return .drop }
        do {
            var resources = try PhotoshopResources(segment: segment)
            guard try resources.strip(scope) else { return .keep }
            return resources.resources.isEmpty ? .drop : .replace(resources.segment)
        } catch {
            throw MetadataError("the IPTC data at byte \(offset) cannot be read: \(message(error))",
                                offset: offset)
        }
    }

    // MARK: Text

    /// PNG text keywords that name a person.
    static let identityKeywords: Set<String> = ["Artist", "Author"]
    /// ImageMagick's hexadecimal copies of EXIF, XMP and IPTC: not read here, so a strip of
    /// location or identity removes them whole.
    static func isLegacyProfile(_ keyword: String) -> Bool { keyword.hasPrefix("Raw profile type") }

    static func message(_ error: any Error) -> String {
        (error as? MetadataError)?.message ?? "\(error)"
    }
}
