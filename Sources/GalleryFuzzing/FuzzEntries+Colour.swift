import GalleryFormat
import GalleryImageHeaders
import GalleryImaging

extension FuzzEntries {
    /// The colour path (issue 31): an image's colour description read, checked and converted
    /// as a thumbnail's is, or, for bytes of no image type, the bytes as an ICC profile. A
    /// conversion runs over a small bitmap of every kind of pixel, so that Little CMS's
    /// evaluation of the tables that got past the check runs too. Accepted when the
    /// description was used (or there was none to use), refused when it was read as sRGB.
    static func colour(_ bytes: UnsafeRawBufferPointer) -> FuzzOutcome {
        let data = Array(bytes)
        let transform: ColourTransform?
        if let type = MediaType.sniff(Array(data.prefix(ImageKind.identifyingBytes))) {
            let plan = ColourPlan.of(data, as: type)
            guard plan.problem == nil else { return .refused }
            transform = plan.transform
        } else {
            do {
                transform = try ColourTransform.toSRGB(from: .iccProfile(data, compressed: false))
            } catch {
                return .refused
            }
        }
        if let transform {
            var pixels = Bitmap(width: 16, height: 16, pixels: (0 ..< 16 * 16 * 4).map { UInt8(truncatingIfNeeded: $0 &* 37) })
            transform.apply(to: &pixels)
        }
        return .accepted
    }
}
