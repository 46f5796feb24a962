import Foundation

/// How far apart two sRGB colours look: CIEDE2000 (CIE 142-2001) over CIELAB with a D65
/// white, the difference the colour tests hold thumbnails to (about 1 is just noticeable).
public enum ColourDifference {
    /// CIEDE2000 between two 8-bit sRGB colours (red, green, blue).
    public static func ciede2000(_ first: [Int], _ second: [Int]) -> Double {
        ciede2000(lab: lab(first), lab(second))
    }

    /// CIEDE2000 between two CIELAB colours (lightness, a, b).
    public static func ciede2000(lab first: (Double, Double, Double), _ second: (Double, Double, Double)) -> Double {
        let (l1, a1, b1) = first
        let (l2, a2, b2) = second
        let meanC = (hypot(a1, b1) + hypot(a2, b2)) / 2
        let g = 0.5 * (1 - sqrt(pow(meanC, 7) / (pow(meanC, 7) + pow(25, 7))))
        let (ap1, ap2) = ((1 + g) * a1, (1 + g) * a2)
        let (c1, c2) = (hypot(ap1, b1), hypot(ap2, b2))
        func hue(_ b: Double, _ a: Double) -> Double {
            guard a != 0 || b != 0 else { return 0 }
            let degrees = atan2(b, a) * 180 / .pi
            return degrees < 0 ? degrees + 360 : degrees
        }
        let (h1, h2) = (hue(b1, ap1), hue(b2, ap2))
        let deltaL = l2 - l1
        let deltaC = c2 - c1
        var deltaH = 0.0
        if c1 * c2 != 0 {
            deltaH = h2 - h1
            if deltaH > 180 { deltaH -= 360 } else if deltaH < -180 { deltaH += 360 }
        }
        let deltaBigH = 2 * sqrt(c1 * c2) * sin(deltaH / 2 * .pi / 180)
        let meanL = (l1 + l2) / 2
        let meanCp = (c1 + c2) / 2
        var meanH = h1 + h2
        if c1 * c2 != 0 {
            if abs(h1 - h2) <= 180 { meanH /= 2 } else { meanH = h1 + h2 < 360 ? (meanH + 360) / 2 : (meanH - 360) / 2 }
        }
        let radians = { (degrees: Double) in degrees * .pi / 180 }
        let t = 1 - 0.17 * cos(radians(meanH - 30)) + 0.24 * cos(radians(2 * meanH)) + 0.32 * cos(radians(3 * meanH + 6))
            - 0.20 * cos(radians(4 * meanH - 63))
        let deltaTheta = 30 * exp(-pow((meanH - 275) / 25, 2))
        let rc = 2 * sqrt(pow(meanCp, 7) / (pow(meanCp, 7) + pow(25, 7)))
        let sl = 1 + 0.015 * pow(meanL - 50, 2) / sqrt(20 + pow(meanL - 50, 2))
        let sc = 1 + 0.045 * meanCp
        let sh = 1 + 0.015 * meanCp * t
        let rt = -sin(radians(2 * deltaTheta)) * rc
        return sqrt(pow(deltaL / sl, 2) + pow(deltaC / sc, 2) + pow(deltaBigH / sh, 2)
                    + rt * (deltaC / sc) * (deltaBigH / sh))
    }

    /// CIELAB of an 8-bit sRGB colour, D65 white.
    static func lab(_ rgb: [Int]) -> (Double, Double, Double) {
        let linear = rgb.map { value -> Double in
            let v = Double(value) / 255
            return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        }
        let x = (0.4124 * linear[0] + 0.3576 * linear[1] + 0.1805 * linear[2]) / 0.95047
        let y = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
        let z = (0.0193 * linear[0] + 0.1192 * linear[1] + 0.9505 * linear[2]) / 1.08883
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
        return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))
    }
}
