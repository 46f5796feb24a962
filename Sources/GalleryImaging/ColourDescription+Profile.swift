internal import CZlib
import GalleryImageHeaders

extension ColourDescription {
    /// The ICC profile's bytes, inflated when stored compressed (PNG's `iCCP`, a zlib stream),
    /// never more than ``largestProfile`` however small the stream (a zlib bomb stops there).
    /// Nil when the description is not a profile. Throws ``ColourProblem`` when the stream is
    /// corrupt, ends early or inflates past the limit: the image is then read as sRGB.
    package func iccProfile() throws(ColourProblem) -> [UInt8]? {
        guard case .iccProfile(let stored, let compressed) = self else { return nil }
        guard compressed else { return stored }
        var stream = z_stream()
        guard inflateInit_(&stream, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ColourProblem("zlib could not start inflating the iCCP profile")
        }
        defer { inflateEnd(&stream) }
        // One byte more than the limit: filling it says the profile is larger than allowed.
        var output = [UInt8](repeating: 0, count: Self.largestProfile + 1)
        var input = stored
        let status = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = UInt32(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = UInt32(outBuffer.count)
                return inflate(&stream, Z_FINISH)
            }
        }
        let produced = Int(stream.total_out)
        guard produced <= Self.largestProfile else {
            throw ColourProblem("the iCCP profile inflates to more than \(Self.largestProfile) bytes")
        }
        guard status == Z_STREAM_END else {
            throw ColourProblem(status == Z_BUF_ERROR ? "the iCCP profile's zlib stream ends early"
                                : "the iCCP profile's zlib stream is corrupt (status \(status))")
        }
        return Array(output[0 ..< produced])
    }
}

/// Why an image's colour description cannot be used: the image is read as sRGB, with this as
/// the warning.
package struct ColourProblem: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}
