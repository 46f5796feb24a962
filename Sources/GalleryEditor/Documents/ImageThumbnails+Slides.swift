// The slideshow's pictures (issue 33): a photo at the screen's size in device pixels, not its
// 24 MP original, made by the same rendition code and kept in the same cache as the grid's.
extension ImageThumbnails {
    /// The long sides a slide is made at. A request is rounded up to one of them, so that every
    /// screen near a size shares one cached file (a 1440-pixel window and a 1600-pixel one both
    /// take the 1920 rendition) instead of each size making its own: HD, full HD, QHD, 4K.
    package static let slideSides = [1280, 1920, 2560, 3840]

    /// The largest long side a page may ask for: twice 8K, far beyond any screen; a bigger
    /// number is a mistake, refused rather than quietly clamped.
    package static let largestSlideRequest = 16_384

    /// What a slide of an image is served as.
    package enum SlideSource: Equatable, Sendable {
        /// The original bytes: a type browsers show, no larger than the rendition would be.
        case original
        /// A rendition at most this many pixels on its longer side.
        case rendition(longSide: Int)
    }

    /// The slide for a screen that needs `requested` pixels on the long side, of an image whose
    /// longer side is `originalLongSide`: the smallest of `slideSides` that covers the request
    /// (the largest when none does), never larger than the original. A rendition as large as
    /// the original gains nothing over it where browsers show the type, so the original is served.
    package static func slide(requested: Int, originalLongSide: Int, browsersShow: Bool) -> SlideSource {
        let side = slideSides.first(where: { $0 >= requested }) ?? slideSides[slideSides.count - 1]
        if side >= originalLongSide {
            return browsersShow ? .original : .rendition(longSide: max(originalLongSide, 1))
        }
        return .rendition(longSide: side)
    }

    /// The long side a request's `side` parameter asks for: a whole number of pixels from 1 to
    /// `largestSlideRequest`. The error names the route, the parameter and what it was given.
    package static func requestedSlideSide(_ text: String?) throws -> Int {
        guard let text else {
            throw EditorError.badRequest("rendition: the request names no size: add ?side=N, the long side in device pixels")
        }
        guard let side = Int(text), (1...largestSlideRequest).contains(side) else {
            throw EditorError.badRequest("rendition: side \"\(text.prefix(40))\" is not a whole number of pixels from 1 to \(largestSlideRequest)")
        }
        return side
    }
}
