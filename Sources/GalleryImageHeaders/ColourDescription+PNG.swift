// A PNG's colour chunks, before its first IDAT, in the order of precedence of the PNG
// specification (third edition, 4.3): `cICP`, then `iCCP`, then `sRGB`, then `cHRM` and `gAMA`.
extension ColourDescription {
    /// The colour description of the PNG read through `read(offset, count)`; throws only when
    /// the file is no PNG at all.
    package static func ofPNG(size: UInt64, read: (UInt64, Int) throws -> [UInt8]) throws -> ColourReading {
        guard try read(0, 8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else {
            throw ImageHeaderError("not a PNG (no PNG signature)")
        }
        var found: [String: (at: UInt64, data: [UInt8])] = [:]
        var offset: UInt64 = 8
        for _ in 0 ..< ImageHeader.pngChunksBeforeImageData {
            let header = try read(offset, 8)
            guard header.count == 8 else { break }
            let (length, type) = (header.be32(0), header.fourCC(4))
            if type == "IDAT" || type == "IEND" { break }
            if ["cICP", "iCCP", "sRGB", "gAMA", "cHRM"].contains(type), found[type] == nil {
                guard length <= UInt64(largestProfile) else {
                    return .unusable("the PNG's \(type) chunk at byte \(offset) holds \(length) bytes, more than \(largestProfile)")
                }
                let data = try read(offset + 8, Int(length))
                guard data.count == Int(length) else {
                    return .unusable("the PNG's \(type) chunk at byte \(offset) runs past the end of the file")
                }
                found[type] = (offset, data)
            }
            offset = offset.addingSaturating(12).addingSaturating(length)
            guard offset < size else { break }
        }
        if let (at, data) = found["cICP"] {
            guard data.count == 4, data[2] == 0, data[3] <= 1 else {
                return .unusable("the PNG's cICP chunk at byte \(at) is malformed (\(data.count) bytes; PNG takes only RGB, matrix 0)")
            }
            return ColourReading(.codePoints(primaries: Int(data[0]), transfer: Int(data[1]), matrix: 0, fullRange: data[3] == 1))
        }
        if let (at, data) = found["iCCP"] {
            // A name of 1 to 79 bytes, a zero byte, the compression method (0: zlib), the profile.
            guard let end = data.prefix(80).firstIndex(of: 0), end >= 1, end + 2 <= data.count, data[end + 1] == 0 else {
                return .unusable("the PNG's iCCP chunk at byte \(at) has no profile name or an unknown compression method")
            }
            return ColourReading(.iccProfile(Array(data[(end + 2)...]), compressed: true))
        }
        if let (at, data) = found["sRGB"] {
            guard data.count == 1 else { return .unusable("the PNG's sRGB chunk at byte \(at) holds \(data.count) bytes, not 1") }
            return ColourReading(.sRGB)
        }
        guard let (at, data) = found["gAMA"] else {
            // cHRM alone says nothing of the transfer curve: the numbers are read as sRGB.
            return ColourReading(.unspecified)
        }
        guard data.count == 4, data.be32(0) > 0 else {
            return .unusable("the PNG's gAMA chunk at byte \(at) is malformed")
        }
        var chromaticities: [Int]?
        if let (_, values) = found["cHRM"], values.count == 32 {
            chromaticities = (0 ..< 8).map { Int(values.be32($0 * 4)) }
        }
        return ColourReading(.gamma(Int(data.be32(0)), chromaticities: chromaticities))
    }
}
