internal import CLCMS2
internal import COnDemand
import GalleryFormat
import GalleryImageHeaders

/// Decoded pixels turned into sRGB by Little CMS (issue 31): every picture this project makes
/// is plain sRGB, untagged, whatever the photo's own colour description said. Built from a
/// description that our own code has read and checked (``ICCProfileCheck``); a description
/// equivalent to sRGB gives no transform at all, so such pictures stay byte for byte as they
/// were.
///
/// One transform serves one picture on one thread: Little CMS's transforms keep a one-pixel
/// cache, so they are not shared.
package final class ColourTransform: @unchecked Sendable {
    /// How the decoded pixels hold the colour the profile describes, four bytes a pixel.
    package enum Layout: Sendable, Equatable {
        /// Red, green, blue and alpha: alpha is left as it is.
        case rgba
        /// Grey in the first byte (the decoders write it to all three), alpha in the fourth.
        case grey
        /// Cyan, magenta, yellow and black as Adobe writes them in a JPEG (inverted: 255 is no ink).
        case invertedCMYK
    }

    package let layout: Layout
    /// What the transform does, for a notice: "Display P3 code points to sRGB".
    package let summary: String
    /// A description that can be converted only in part (an HDR curve, read as sRGB's), in words.
    package let caveat: String?
    private let transform: cmsHTRANSFORM
    /// The same conversion from filtered colours (0–1 floats, four a pixel) to bytes: a
    /// resampler hands its output over before rounding, so no precision is lost first. Nil for
    /// CMYK, which the decoder converts before filtering.
    private let fromFloats: cmsHTRANSFORM?

    private init(transform: cmsHTRANSFORM, fromFloats: cmsHTRANSFORM?, layout: Layout, summary: String, caveat: String?) {
        self.transform = transform
        self.fromFloats = fromFloats
        self.layout = layout
        self.summary = summary
        self.caveat = caveat
    }

    deinit {
        cmsDeleteTransform(transform)
        if let fromFloats { cmsDeleteTransform(fromFloats) }
    }

    /// Whether ``apply(floats:to:count:)`` converts (RGB and grey profiles).
    package var convertsFloats: Bool { fromFloats != nil }

    /// Converts `count` pixels of four 0–1 floats (red, green, blue and one more, which is
    /// left alone) into the red, green and blue bytes of `to`'s four-byte pixels; their fourth
    /// bytes are the caller's.
    package func apply(floats: UnsafeRawPointer, to bytes: UnsafeMutablePointer<UInt8>, count: Int) {
        guard let fromFloats else { return }
        cmsDoTransform(fromFloats, floats, bytes, cmsUInt32Number(count))
    }

    /// The transform from pixels that `description` describes to sRGB; nil when they are sRGB
    /// already or equivalent to it (nothing to do, so nothing changes). Throws
    /// ``ColourProblem`` when the description cannot be used: the pixels are then read as sRGB.
    package static func toSRGB(from description: ColourDescription) throws(ColourProblem) -> ColourTransform? {
        switch description {
        case .unspecified, .sRGB:
            return nil
        case .iccProfile:
            guard let bytes = try description.iccProfile() else { return nil }
            let space = try ICCProfileCheck.check(bytes)
            let layout: Layout
            switch space {
            case "RGB ": layout = .rgba
            case "GRAY": layout = .grey
            case "CMYK": layout = .invertedCMYK
            default: throw ColourProblem("the ICC profile describes the colour space '\(space)', which no decoded image is in")
            }
            try requireEngine()
            guard let profile = bytes.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }) else {
                throw ColourProblem("Little CMS cannot read the ICC profile")
            }
            defer { cmsCloseProfile(profile) }
            if layout == .rgba, isEquivalentToSRGB(profile) { return nil }
            return try make(from: profile, layout: layout, summary: "its ICC profile (\(space.trimmingSpaces)) to sRGB",
                            caveat: nil)
        case .codePoints(let primaries, let transfer, _, _):
            guard let built = try ColourPrimaries.profile(primaries: primaries, transfer: transfer) else { return nil }
            defer { cmsCloseProfile(built.profile) }
            return try make(from: built.profile, layout: .rgba,
                            summary: "its code points (primaries \(primaries), transfer \(transfer)) to sRGB", caveat: built.caveat)
        case .gamma(let gamma, let chromaticities):
            guard let profile = try ColourPrimaries.profile(gamma: gamma, chromaticities: chromaticities) else { return nil }
            defer { cmsCloseProfile(profile) }
            return try make(from: profile, layout: .rgba, summary: "its gamma and chromaticities to sRGB", caveat: nil)
        }
    }

    /// The address space Little CMS takes once loaded, with room to spare: its library maps
    /// about 1 MiB, a transform a few kilobytes. A process under an address-space cap that
    /// loads it lowers its decode budget by this.
    package static let engineBytes = 4 << 20

    /// Loads Little CMS when first needed; a system without it reads every image as sRGB.
    package static func requireEngine() throws(ColourProblem) {
        var reason: UnsafePointer<CChar>?
        guard ig_library_load(IG_LIBRARY_LCMS2, &reason) == 0 else {
            warmed
            return
        }
        throw ColourProblem("colour profiles cannot be honoured here: " + (reason.map { String(cString: $0) } ?? "Little CMS is missing"))
    }

    /// Little CMS dates each profile it makes, and glibc reads the time zone (/etc/localtime)
    /// the first time: done once while the library is loaded, so that a confined process, which
    /// may no longer open files, never tries.
    private static let warmed: Void = {
        if let profile = cmsCreate_sRGBProfile() { cmsCloseProfile(profile) }
    }()

    private static func make(from profile: cmsHPROFILE, layout: Layout, summary: String,
                             caveat: String?) throws(ColourProblem) -> ColourTransform {
        guard let sRGB = cmsCreate_sRGBProfile() else { throw ColourProblem("Little CMS cannot make its sRGB profile") }
        defer { cmsCloseProfile(sRGB) }
        let input: cmsUInt32Number = switch layout {
        case .rgba: PixelFormat.rgba8
        case .grey: PixelFormat.greyInRGBA8
        case .invertedCMYK: PixelFormat.invertedCMYK8
        }
        // Relative colorimetric, as vips and browsers do by default: matrix-shaper profiles have
        // no other, and a LUT profile's perceptual table varies between vendors.
        let intent = cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC)
        guard let transform = cmsCreateTransform(profile, input, sRGB, PixelFormat.rgba8, intent, 0) else {
            throw ColourProblem("Little CMS cannot convert the image's colour profile to sRGB")
        }
        let floats: cmsUInt32Number? = switch layout {
        case .rgba: PixelFormat.rgbaFloat
        case .grey: PixelFormat.greyInRGBAFloat
        case .invertedCMYK: nil
        }
        let fromFloats = floats.flatMap { cmsCreateTransform(profile, $0, sRGB, PixelFormat.rgba8, intent, 0) }
        guard floats == nil || fromFloats != nil else {
            cmsDeleteTransform(transform)
            throw ColourProblem("Little CMS cannot convert the image's colour profile to sRGB")
        }
        return ColourTransform(transform: transform, fromFloats: fromFloats, layout: layout, summary: summary, caveat: caveat)
    }

    /// Converts `bitmap`'s pixels to sRGB in place. Alpha stays; CMYK's fourth byte, which is
    /// ink, becomes opaque alpha.
    package func apply(to bitmap: inout Bitmap) {
        apply(to: &bitmap.pixels)
    }

    /// `count` four-byte pixels at `pixels`, in place (a resampler's output row).
    package func apply(toPixelsAt pixels: UnsafeMutablePointer<UInt8>, count: Int) {
        cmsDoTransform(transform, pixels, pixels, cmsUInt32Number(count))
    }

    /// The same over raw four-byte pixels (a decoder's CMYK output before it is a bitmap).
    package func apply(to pixels: inout [UInt8]) {
        pixels.withUnsafeMutableBytes { apply(toDecoded: $0) }
    }

    /// The same over a decoder's rows in place (a JPEG's CMYK rows as they are decoded).
    package func apply(toDecoded buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress else { return }
        let count = buffer.count / 4
        // Rows of pixels at a time: Little CMS walks a call's pixels in one loop, and a row
        // keeps the work in the cache without a call per pixel.
        let step = 1 << 14
        var done = 0
        while done < count {
            let run = min(step, count - done)
            let at = base + done * 4
            // In place: each pixel is read before it is written, four bytes in and out.
            cmsDoTransform(transform, at, at, cmsUInt32Number(run))
            done += run
        }
        if layout == .invertedCMYK {
            // Little CMS leaves the output's alpha untouched; here it still holds black ink.
            var index = 3
            while index < buffer.count {
                buffer[index] = 255
                index += 4
            }
        }
    }

    /// Whether an RGB profile is sRGB in all but name: a matrix-shaper whose colorants and
    /// curves agree with Little CMS's own sRGB to well within one 8-bit step. Cameras and
    /// phones tag most photos with such a profile ("sRGB IEC61966-2.1"), and those pictures
    /// must not change by a rounding.
    private static func isEquivalentToSRGB(_ profile: cmsHPROFILE) -> Bool {
        guard cmsIsMatrixShaper(profile) != 0, let sRGB = cmsCreate_sRGBProfile() else { return false }
        defer { cmsCloseProfile(sRGB) }
        let colorants = [cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag]
        for tag in colorants {
            guard let ours = cmsReadTag(profile, tag)?.assumingMemoryBound(to: cmsCIEXYZ.self).pointee,
                  let theirs = cmsReadTag(sRGB, tag)?.assumingMemoryBound(to: cmsCIEXYZ.self).pointee else { return false }
            // The colorants as written are s15Fixed16 numbers rounded by each vendor's tool:
            // Apple's, HP's and Google's sRGB differ from Little CMS's by up to 0.0005.
            guard abs(ours.X - theirs.X) < 0.002, abs(ours.Y - theirs.Y) < 0.002, abs(ours.Z - theirs.Z) < 0.002 else {
                return false
            }
        }
        let curves = [cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag]
        for tag in curves {
            guard let ours = cmsReadTag(profile, tag).map(OpaquePointer.init),
                  let theirs = cmsReadTag(sRGB, tag).map(OpaquePointer.init) else { return false }
            for step in 0 ... 64 {
                let value = Float(step) / 64
                // A quarter of an 8-bit step of linear light at most.
                if abs(cmsEvalToneCurveFloat(ours, value) - cmsEvalToneCurveFloat(theirs, value)) > 0.001 { return false }
            }
        }
        return true
    }
}

/// Little CMS's pixel format words (lcms2.h's TYPE_ macros, which Swift cannot import), for
/// the four-byte pixels the decoders write.
enum PixelFormat {
    private static func word(space: UInt32, channels: UInt32, extra: UInt32, flavour: UInt32 = 0,
                             floats: Bool = false) -> cmsUInt32Number {
        // FLOAT_SH, COLORSPACE_SH, FLAVOR_SH, EXTRA_SH, CHANNELS_SH and BYTES_SH (4 for floats).
        (floats ? 1 << 22 : 0) | (space << 16) | (flavour << 13) | (extra << 7) | (channels << 3) | (floats ? 4 : 1)
    }

    /// TYPE_RGBA_8.
    static let rgba8 = word(space: 4, channels: 3, extra: 1)
    /// Grey in the first byte and three more Little CMS leaves alone (the output's green and blue
    /// it writes itself, the alpha it never touches).
    static let greyInRGBA8 = word(space: 3, channels: 1, extra: 3)
    /// TYPE_RGBA_FLT: filtered colours, 0 to 1.
    static let rgbaFloat = word(space: 4, channels: 3, extra: 1, floats: true)
    /// Grey in the first float of four.
    static let greyInRGBAFloat = word(space: 3, channels: 1, extra: 3, floats: true)
    /// TYPE_CMYK_8_REV: Adobe's inverted CMYK.
    static let invertedCMYK8 = word(space: 6, channels: 4, extra: 0, flavour: 1)
}

extension String {
    var trimmingSpaces: String {
        var trimmed = self
        while trimmed.last == " " { trimmed.removeLast() }
        return trimmed
    }
}
