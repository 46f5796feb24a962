internal import CLCMS2
import GalleryFormat
import GalleryImageHeaders

/// Profiles built for descriptions that are not ICC profiles: H.273 code points (AVIF's and
/// HEIC's `nclx`, PNG's `cICP`) and PNG's `gAMA` with `cHRM`. Little CMS makes a matrix-shaper
/// from the white point, the three primaries and the curve.
enum ColourPrimaries {
    typealias Chromaticity = (x: Double, y: Double)

    static let d65: Chromaticity = (0.3127, 0.3290)
    static let illuminantC: Chromaticity = (0.310, 0.316)
    static let sRGBPrimaries: [Chromaticity] = [(0.64, 0.33), (0.30, 0.60), (0.15, 0.06)]

    /// H.273's table 2: white point, then red, green and blue, for the colour primaries a file may
    /// name. 2 (unspecified) is read as sRGB's, as browsers do.
    static func codePoint(_ value: Int) -> (white: Chromaticity, primaries: [Chromaticity], name: String)? {
        switch value {
        case 1, 2: (d65, sRGBPrimaries, "BT.709")
        case 4: (illuminantC, [(0.67, 0.33), (0.21, 0.71), (0.14, 0.08)], "BT.470 M")
        case 5: (d65, [(0.64, 0.33), (0.29, 0.60), (0.15, 0.06)], "BT.601 625")
        case 6, 7: (d65, [(0.630, 0.340), (0.310, 0.595), (0.155, 0.070)], "BT.601 525")
        case 8: (illuminantC, [(0.681, 0.319), (0.243, 0.692), (0.145, 0.049)], "generic film")
        case 9: (d65, [(0.708, 0.292), (0.170, 0.797), (0.131, 0.046)], "BT.2020")
        case 11: ((0.314, 0.351), [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)], "DCI-P3")
        case 12: (d65, [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)], "Display P3")
        case 22: (d65, [(0.630, 0.340), (0.295, 0.605), (0.155, 0.077)], "EBU Tech 3213")
        default: nil
        }
    }

    /// Little CMS's parametric curve of type 4, Y = (aX + b)^g above d and cX below, for an
    /// H.273 transfer characteristic (table 3), decoding to linear light; nil for curves it
    /// cannot express this way (PQ, HLG and the rest), which are read as sRGB's with a caveat.
    static func curve(transfer: Int) -> [Double]? {
        switch transfer {
        case 1, 6, 14, 15: [1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081]
        case 2, 13: [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        case 4: [2.2, 1, 0, 0, 0]
        case 5: [2.8, 1, 0, 0, 0]
        case 7: [1 / 0.45, 1 / 1.1115, 0.1115 / 1.1115, 1 / 4.0, 0.0913]
        case 8: [1, 1, 0, 0, 0]
        default: nil
        }
    }

    /// BT.709 primaries or unspecified ones, with the sRGB curve or an unspecified one.
    static func isSRGB(primaries: Int, transfer: Int) -> Bool {
        [1, 2].contains(primaries) && [2, 13].contains(transfer)
    }

    /// A gamma of 1/2.2 with no chromaticities or sRGB's: how most PNG writers say sRGB.
    static func isSRGB(gamma: Int, chromaticities: [Int]?) -> Bool {
        let sRGBValues = [31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000]
        return (45000 ... 46000).contains(gamma)
            && (chromaticities.map { zip($0, sRGBValues).allSatisfy { abs($0 - $1) <= 100 } } ?? true)
    }

    /// The profile of a file's code points, or nil when they are sRGB's (BT.709 primaries or
    /// unspecified ones, with the sRGB curve or an unspecified one). The caveat says what could
    /// not be honoured. Throws for primaries H.273 does not define for pictures.
    static func profile(primaries: Int, transfer: Int) throws(ColourProblem) -> (profile: cmsHPROFILE, caveat: String?)? {
        guard let named = codePoint(primaries) else {
            throw ColourProblem("the colour primaries code point \(primaries) names no primaries this reader knows")
        }
        if isSRGB(primaries: primaries, transfer: transfer) { return nil }
        var caveat: String?
        var parameters = curve(transfer: transfer) ?? curve(transfer: 13)!
        if curve(transfer: transfer) == nil {
            caveat = transfer == 16 || transfer == 18
                ? "its HDR transfer (\(transfer == 16 ? "PQ" : "HLG")) is shown with the sRGB curve, and its colours clipped to sRGB"
                : "its transfer characteristic \(transfer) is read as the sRGB curve"
            parameters = curve(transfer: 13)!
        }
        let profile = try build(white: named.white, primaries: named.primaries, curve: parameters)
        return (profile, caveat)
    }

    /// The profile of PNG's `gAMA` (and `cHRM` when given), or nil when it is sRGB's: a gamma
    /// of 1/2.2 with no chromaticities or sRGB's, which is how most writers say sRGB.
    static func profile(gamma: Int, chromaticities: [Int]?) throws(ColourProblem) -> cmsHPROFILE? {
        guard gamma > 0 else { throw ColourProblem("the PNG's gAMA is zero") }
        if isSRGB(gamma: gamma, chromaticities: chromaticities) { return nil }
        var white = d65
        var primaries = sRGBPrimaries
        if let values = chromaticities, values.count == 8 {
            let scaled = values.map { Double($0) / 100_000 }
            white = (scaled[0], scaled[1])
            primaries = [(scaled[2], scaled[3]), (scaled[4], scaled[5]), (scaled[6], scaled[7])]
        }
        // gAMA is the encoding exponent: the decoding curve is its reciprocal.
        let exponent = 100_000 / Double(gamma)
        guard (0.1 ... 10).contains(exponent) else {
            throw ColourProblem("the PNG's gAMA of \(gamma)/100000 is outside any display's range")
        }
        return try build(white: white, primaries: primaries, curve: [exponent, 1, 0, 0, 0])
    }

    private static func build(white: Chromaticity, primaries: [Chromaticity], curve parameters: [Double]) throws(ColourProblem) -> cmsHPROFILE {
        for point in [white] + primaries where !(point.x > 0 && point.x < 1 && point.y > 0 && point.y < 1) {
            throw ColourProblem("a chromaticity (\(point.x), \(point.y)) lies outside the CIE diagram")
        }
        try ColourTransform.requireEngine()
        var whitePoint = cmsCIExyY(x: white.x, y: white.y, Y: 1)
        var triple = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: primaries[0].x, y: primaries[0].y, Y: 1),
                                     Green: cmsCIExyY(x: primaries[1].x, y: primaries[1].y, Y: 1),
                                     Blue: cmsCIExyY(x: primaries[2].x, y: primaries[2].y, Y: 1))
        let type: Int32 = parameters[3] == 0 && parameters[4] == 0 ? 1 : 4
        guard let tone = parameters.withUnsafeBufferPointer({ cmsBuildParametricToneCurve(nil, type, $0.baseAddress) }) else {
            throw ColourProblem("Little CMS cannot build the transfer curve")
        }
        defer { cmsFreeToneCurve(tone) }
        var curves: [OpaquePointer?] = [tone, tone, tone]
        let profile = curves.withUnsafeMutableBufferPointer { curves in
            cmsCreateRGBProfile(&whitePoint, &triple, curves.baseAddress)
        }
        // Primaries that are collinear (or a white point off their triangle) give a matrix with
        // no inverse, which Little CMS refuses.
        guard let profile else { throw ColourProblem("the primaries and white point make no usable colour space") }
        return profile
    }
}
