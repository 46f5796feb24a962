// A PNG's chunks from IHDR to its first IDAT, walked by their lengths without reading their
// data (issue 28): a PNG that has no image data is refused where its header is read, at
// `create`, `add`, `convert` and fetch time and by `validate` without `--deep`, not only when
// a decoder finds out (IG-BLB-018). Data that is there but corrupt stays `--deep`'s (IG-BLB-008).
extension ImageHeader {
    /// Chunks walked before the first `IDAT` at most; a real file has a few dozen.
    static let pngChunksBeforeImageData = 100_000

    /// Refuses, with IG-BLB-018, a PNG of `size` bytes whose chunks reach `IEND` or the end of
    /// the file (or run past it) before an `IDAT`. A view that ends before `size` (a validator's
    /// first bytes of a deflated blob) stops the walk: what lies beyond is not judged.
    static func checkPNGImageData(size: UInt64, read: (UInt64, Int) throws -> [UInt8]) throws {
        var offset: UInt64 = 8
        for _ in 0 ..< pngChunksBeforeImageData {
            guard offset.addingSaturating(8) <= size else {
                throw ImageHeaderError("the PNG ends (at byte \(size)) before any IDAT chunk: it has no image data",
                                       offset: offset, problem: .pngWithoutImageData)
            }
            let header = try read(offset, 8)
            guard header.count == 8 else { return }
            let (length, type) = (header.be32(0), header.fourCC(4))
            if type == "IDAT" { return }
            if type == "IEND" {
                throw ImageHeaderError("the PNG reaches IEND before any IDAT chunk: it has no image data", offset: offset,
                                       problem: .pngWithoutImageData)
            }
            let next = offset.addingSaturating(12).addingSaturating(length)
            guard length <= 0x7FFF_FFFF, next <= size else {
                throw ImageHeaderError("the PNG's \(ImageHeader.printable(type)) chunk (\(length) bytes) runs past the end of "
                                       + "the file (\(size) bytes) before any IDAT chunk", offset: offset,
                                       problem: .pngWithoutImageData)
            }
            offset = next
        }
        throw ImageHeaderError("the PNG has more than \(pngChunksBeforeImageData) chunks before its first IDAT",
                               offset: offset, problem: .pngWithoutImageData)
    }

    /// A chunk type as text, its bytes outside printable ASCII escaped.
    static func printable(_ type: String) -> String {
        type.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? String($0) : "\\u{\(String($0.value, radix: 16))}" }
            .joined()
    }
}
