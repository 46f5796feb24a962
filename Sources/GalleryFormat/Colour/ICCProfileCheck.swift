import GalleryImageHeaders

/// What a colour engine would be handed, checked first by our own code (issue 31; the tests'
/// hostile profiles): the header, the tag table, and every lookup table's declared size against
/// the bytes its tag holds, so that no table that multiplies to gigabytes, and no tag past the
/// profile or partly over another, reaches Little CMS.
package enum ICCProfileCheck {
    /// More tags than any real profile has (a few dozen): a table past it is hostile.
    static let mostTags = 1_000
    /// Colour lookup table entries (grid points multiplied over the inputs) at most: a 33-point
    /// grid over four inputs is 1.2 million, the largest real profiles use.
    static let mostLookupEntries = 1 << 24

    /// The colour space the profile describes (`RGB `, `GRAY`, `CMYK`, ...) once every check
    /// holds; throws ``ColourProblem`` naming the first that does not.
    package static func check(_ profile: [UInt8]) throws(ColourProblem) -> String {
        guard profile.count >= 132 else { throw ColourProblem("the ICC profile is \(profile.count) bytes, shorter than its header") }
        guard profile.be32(0) == UInt64(profile.count) else {
            throw ColourProblem("the ICC profile says it is \(profile.be32(0)) bytes long, and holds \(profile.count)")
        }
        guard profile.fourCC(36) == "acsp" else { throw ColourProblem("the ICC profile has no 'acsp' signature") }
        let count = Int(profile.be32(128))
        guard count <= mostTags, 132 + 12 * count <= profile.count else {
            throw ColourProblem("the ICC profile's tag table claims \(count) tags")
        }
        var spans: [Range<Int>] = []
        for index in 0 ..< count {
            let entry = 132 + 12 * index
            let (signature, offset, size) = (String.shownFourCC(profile[entry ..< entry + 4]), profile.be32(entry + 4), profile.be32(entry + 8))
            guard size >= 8, offset >= 132, offset.addingSaturating(size) <= UInt64(profile.count) else {
                throw ColourProblem("the ICC profile's tag '\(signature)' (\(size) bytes at \(offset)) lies outside the profile")
            }
            let span = Int(offset) ..< Int(offset + size)
            // Tags may share their data whole (rTRC, gTRC and bTRC often do), never in part.
            if let other = spans.first(where: { $0.overlaps(span) && $0 != span }) {
                throw ColourProblem("the ICC profile's tag '\(signature)' (bytes \(span.lowerBound) to \(span.upperBound)) "
                                    + "overlaps another tag's (\(other.lowerBound) to \(other.upperBound))")
            }
            spans.append(span)
            try checkLookupTable(Array(profile[span]), signature: signature)
        }
        return profile.fourCC(16)
    }

    /// A lookup table's tables must fit the tag that holds them (ICC.1:2022, 10.10 to 10.13).
    static func checkLookupTable(_ tag: [UInt8], signature: String) throws(ColourProblem) {
        let type = tag.fourCC(0)
        guard ["mft1", "mft2", "mAB ", "mBA "].contains(type) else { return }
        guard tag.count >= 12 else { throw ColourProblem("the ICC profile's '\(signature)' table is truncated") }
        let (inputs, outputs) = (Int(tag[8]), Int(tag[9]))
        guard (1 ... 15).contains(inputs), (1 ... 15).contains(outputs) else {
            throw ColourProblem("the ICC profile's '\(signature)' table has \(inputs) inputs and \(outputs) outputs")
        }
        func entries(_ grid: [Int]) throws(ColourProblem) -> Int {
            var total = 1
            for points in grid {
                let (product, overflow) = total.multipliedReportingOverflow(by: points)
                guard !overflow, product <= mostLookupEntries else {
                    throw ColourProblem("the ICC profile's '\(signature)' table has a grid of \(grid) points: more than "
                                        + "\(mostLookupEntries) entries")
                }
                total = product
            }
            return total
        }
        let needed: Int
        switch type {
        case "mft1":
            needed = 48 + 256 * inputs + (try entries(Array(repeating: Int(tag[10]), count: inputs))) * outputs + 256 * outputs
        case "mft2":
            guard tag.count >= 52 else { throw ColourProblem("the ICC profile's '\(signature)' table is truncated") }
            let (inputEntries, outputEntries) = (tag.be16(48), tag.be16(50))
            needed = 52 + 2 * (inputEntries * inputs + (try entries(Array(repeating: Int(tag[10]), count: inputs))) * outputs
                               + outputEntries * outputs)
        default:  // mAB and mBA: the colour lookup table at its own offset, if any
            guard tag.count >= 32 else { throw ColourProblem("the ICC profile's '\(signature)' table is truncated") }
            let clut = Int(tag.be32(24))
            guard clut != 0 else { return }
            guard clut <= tag.count - 20 else { throw ColourProblem("the ICC profile's '\(signature)' table points past itself") }
            let grid = (0 ..< inputs).map { Int(tag[clut + $0]) }
            let precision = Int(tag[clut + 16])
            guard precision == 1 || precision == 2 else {
                throw ColourProblem("the ICC profile's '\(signature)' table has a precision of \(precision) bytes")
            }
            needed = clut + 20 + (try entries(grid)) * outputs * precision
        }
        guard needed <= tag.count else {
            throw ColourProblem("the ICC profile's '\(signature)' table needs \(needed) bytes and its tag holds \(tag.count)")
        }
    }
}
