import GalleryImageHeaders

extension ColourDescription {
    /// The ICC profile's bytes, inflated when stored compressed (PNG's `iCCP`, a zlib stream),
    /// never more than ``largestProfile`` however small the stream (a zlib bomb stops there).
    /// Nil when the description is not a profile. Throws ``ColourProblem`` when the stream is
    /// corrupt, ends early or inflates past the limit: the image is then read as sRGB.
    package func iccProfile() throws(ColourProblem) -> [UInt8]? {
        guard case .iccProfile(let stored, let compressed) = self else { return nil }
        guard compressed else { return stored }
        var profile: [UInt8] = []
        var pastLimit = false
        let finished: Bool
        do {
            let inflater = try Inflater(entry: "iCCP", zlibWrapped: true)
            // Sixty-four kilobytes at a time: a bomb is stopped one chunk past the limit.
            var output = [UInt8](repeating: 0, count: 64 << 10)
            try stored.withUnsafeBytes { input in
                try output.withUnsafeMutableBytes { output in
                    try inflater.inflate(input, output: output) { chunk in
                        guard profile.count + chunk.count <= Self.largestProfile else {
                            pastLimit = true
                            throw ColourProblem("the iCCP profile inflates to more than \(Self.largestProfile) bytes",
                                                code: .colourDescriptionUnusable)
                        }
                        profile += chunk
                    }
                }
            }
            finished = inflater.finished
        } catch let problem as ColourProblem {
            throw problem
        } catch let error as GalleryError {
            throw ColourProblem("the iCCP profile's zlib stream is corrupt (\(error.cause ?? error.message))",
                                code: .colourDescriptionUnusable)
        } catch {
            throw ColourProblem("the iCCP profile's zlib stream is corrupt (\(error))", code: .colourDescriptionUnusable)
        }
        guard finished, !pastLimit else {
            throw ColourProblem("the iCCP profile's zlib stream ends early", code: .colourDescriptionUnusable)
        }
        return profile
    }
}

/// Why an image's colour description cannot be used: the image is read as sRGB, with this as
/// the warning.
package struct ColourProblem: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String
    /// Which diagnostic a validator gives it.
    package var code: DiagnosticCode
    package init(_ message: String, code: DiagnosticCode = .colourProfileMalformed) {
        self.message = message
        self.code = code
    }
    package var description: String { message }
}
