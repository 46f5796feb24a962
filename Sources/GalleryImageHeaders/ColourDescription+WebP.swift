// A WebP's ICC profile: the `ICCP` chunk of an extended (VP8X) file, whose flags say one is there.
extension ColourDescription {
    /// The colour description of the WebP read through `read(offset, count)`; throws only when
    /// the file is no WebP at all.
    package static func ofWebP(size: UInt64, read: (UInt64, Int) throws -> [UInt8]) throws -> ColourReading {
        let header = try read(0, 12)
        guard header.count == 12, header.fourCC(0) == "RIFF", header.fourCC(8) == "WEBP" else {
            throw ImageHeaderError("not a WebP (no RIFF WEBP header)")
        }
        var offset: UInt64 = 12
        var extended = false
        for _ in 0 ..< 1024 {
            let chunk = try read(offset, 8)
            guard chunk.count == 8 else { break }
            let (type, length) = (chunk.fourCC(0), chunk.le32(4))
            if type == "VP8X" { extended = true }
            if type == "ICCP" {
                guard extended else { return .unusable("the WebP's ICCP chunk at byte \(offset) is not in an extended (VP8X) file") }
                guard length <= UInt64(largestProfile) else {
                    return .unusable("the WebP's ICCP chunk at byte \(offset) holds \(length) bytes, more than \(largestProfile)")
                }
                let profile = try read(offset + 8, Int(length))
                guard profile.count == Int(length) else {
                    return .unusable("the WebP's ICCP chunk at byte \(offset) runs past the end of the file")
                }
                return ColourReading(.iccProfile(profile, compressed: false))
            }
            // The image data comes after the profile in every valid file: nothing to find past it.
            if type == "VP8 " || type == "VP8L" || type == "ANMF" || type == "ALPH" { break }
            offset = offset.addingSaturating(8).addingSaturating(length + (length & 1))
            guard offset < size else { break }
        }
        return ColourReading(.unspecified)
    }
}
