// A JPEG's ICC profile: APP2 segments that start "ICC_PROFILE\0", each with its place in the
// sequence (from 1) and the sequence's length, since one segment holds at most 65,519 bytes
// of profile (ICC.1, annex B.4). Read up to the first scan, where every writer puts them.
extension ColourDescription {
    static let jpegICCSignature = Array("ICC_PROFILE".utf8) + [0]

    /// The colour description of the JPEG read through `read(offset, count)`; throws only
    /// when the file is no JPEG at all.
    package static func ofJPEG(size: UInt64, read: (UInt64, Int) throws -> [UInt8]) throws -> ColourReading {
        guard try read(0, 2) == [0xFF, 0xD8] else { throw ImageHeaderError("not a JPEG (no start-of-image marker)") }
        var chunks: [Int: [UInt8]] = [:]
        var declaredCount: Int?
        var stored = 0
        var refusal: ColourReading?
        do {
            try JPEGStructure.walkSegments(size: size, read: read) { code, at, length in
                guard code == 0xE2, length >= 2 + 14, try read(at + 4, 12) == jpegICCSignature else { return true }
                let place = try read(at + 16, 2)
                guard place.count == 2 else { return false }
                let (sequence, count) = (Int(place[0]), Int(place[1]))
                guard count > 0, (1 ... count).contains(sequence), declaredCount ?? count == count, chunks[sequence] == nil else {
                    refusal = .unusable("the ICC profile's APP2 segment at byte \(at) is number \(sequence) of \(count)"
                                        + (declaredCount.map { ", where an earlier one said of \($0)" } ?? "")
                                        + (chunks[sequence] != nil ? ", a number already seen" : ""))
                    return false
                }
                declaredCount = count
                stored += length - 16
                guard stored <= largestProfile else {
                    refusal = .unusable("the ICC profile's APP2 segments hold more than \(largestProfile) bytes")
                    return false
                }
                let chunk = try read(at + 18, length - 16)
                guard chunk.count == length - 16 else {
                    refusal = .unusable("the ICC profile's APP2 segment at byte \(at) runs past the end of the file")
                    return false
                }
                chunks[sequence] = chunk
                return true
            }
        } catch is ImageHeaderError {
            // A segment of an invalid length: the decoder refuses the file; its description ends there.
        }
        if let refusal { return refusal }
        guard let count = declaredCount else { return ColourReading(.unspecified) }
        guard chunks.count == count else {
            let missing = (1 ... count).filter { chunks[$0] == nil }.map(String.init).joined(separator: ", ")
            return .unusable("the ICC profile is split in \(count) APP2 segments, and number \(missing) is missing")
        }
        return ColourReading(.iccProfile((1 ... count).flatMap { chunks[$0]! }, compressed: false))
    }
}
