// An AVIF's or HEIC's colour: the `colr` property of its primary item, of type `prof` or `rICC`
// (an ICC profile) or `nclx` (H.273 code points). A grid's own property is the image's; only
// when the grid has none does its first tile's say (as libheif reads it). With both an ICC profile
// and code points, the profile describes the colours (the code points' matrix is the decoder's).
extension ColourDescription {
    /// The colour description of the AVIF or HEIC read through `read(offset, count)`; throws
    /// when the boxes that lead to the primary item's properties cannot be read.
    package static func ofHEIF(size: UInt64, limits: HeaderLimits = HeaderLimits(),
                               read: @escaping (UInt64, Int) throws -> [UInt8]) throws -> ColourReading {
        var walk = BoxWalk(source: HeaderSource(size: size, read: read), limits: limits)
        let top = try walk.children(from: 0, to: size)
        guard let box = top.first(where: { $0.type == "meta" }) else { throw ImageHeaderError("no meta box", offset: 0) }
        let meta = try walk.meta(box)
        guard let primary = meta.primary else { throw ImageHeaderError("no primary item (pitm)", offset: box.start) }
        var colours = meta.properties(of: primary).filter { $0.type == "colr" }
        if colours.isEmpty, meta.itemTypes[primary] == "grid", let tile = meta.derived[primary]?.first {
            colours = meta.properties(of: tile).filter { $0.type == "colr" }
        }
        var codePoints: ColourDescription?
        for colour in colours {
            let length = colour.end - colour.payload
            guard length >= 4 else { return .unusable("the colr property at byte \(colour.start) is \(length) bytes long") }
            let kind = try walk.source.bytes(at: colour.payload, count: 4, "the colr property")
            switch String(decoding: kind, as: UTF8.self) {
            case "prof", "rICC":
                guard length - 4 <= UInt64(largestProfile) else {
                    return .unusable("the colr property at byte \(colour.start) holds a profile of \(length - 4) bytes, "
                                     + "more than \(largestProfile)")
                }
                let profile = try walk.source.bytes(at: colour.payload + 4, count: Int(length - 4), "the colr property's profile")
                return ColourReading(.iccProfile(profile, compressed: false))
            case "nclx":
                guard length >= 11 else {
                    return .unusable("the nclx colr property at byte \(colour.start) is \(length) bytes long, not 11")
                }
                let body = try walk.source.bytes(at: colour.payload + 4, count: 7, "the nclx colr property")
                codePoints = codePoints ?? .codePoints(primaries: body.be16(0), transfer: body.be16(2), matrix: body.be16(4),
                                                       fullRange: body[6] & 0x80 != 0)
            default:
                continue  // another kind of colour information: nothing this reader takes
            }
        }
        return ColourReading(codePoints ?? .unspecified)
    }
}
