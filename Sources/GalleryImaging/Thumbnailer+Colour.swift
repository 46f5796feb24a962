import GalleryFormat
import GalleryImageHeaders

/// What an image's colour description asks of the pictures made from it (issue 31): a
/// conversion to sRGB, nothing (sRGB or no description), or nothing with a warning (a
/// description that cannot be used, read as sRGB).
package struct ColourPlan: Sendable {
    package var transform: ColourTransform?
    /// Why the image is read as sRGB although it says otherwise, or what the conversion could
    /// not honour (an HDR curve), in words that name the place.
    package var problem: String?

    /// The plan for an image of `type` held in `bytes`. Reading the description is our own
    /// bounded code; only a description that needs converting loads Little CMS.
    package static func of(_ bytes: [UInt8], as type: MediaType) -> ColourPlan {
        let reading: ColourReading
        do {
            reading = try ColourDescription.of(type, size: UInt64(bytes.count)) { bytes.bytes(at: $0, count: $1) }
        } catch {
            // The decoder will say what is wrong with the file itself.
            return ColourPlan()
        }
        if let problem = reading.problem { return ColourPlan(problem: problem) }
        do {
            guard let transform = try ColourTransform.toSRGB(from: reading.description) else { return ColourPlan() }
            if let mismatch = mismatch(of: transform.layout, with: bytes, as: type) {
                return ColourPlan(problem: mismatch + "; its pixels are read as sRGB")
            }
            return ColourPlan(transform: transform, problem: transform.caveat)
        } catch {
            return ColourPlan(problem: "\(error.message); its pixels are read as sRGB")
        }
    }

    /// Whether the colour description of an image of `type` in `bytes` may need Little CMS: a
    /// profile (unless it cannot be read), or code points or gamma other than sRGB's. Our own
    /// code only; a program that must load the engine before it confines itself asks this.
    package static func mayNeedEngine(_ bytes: [UInt8], as type: MediaType) -> Bool {
        guard let reading = try? ColourDescription.of(type, size: UInt64(bytes.count), read: { bytes.bytes(at: $0, count: $1) }),
              reading.problem == nil else { return false }
        switch reading.description {
        case .unspecified, .sRGB: return false
        case .iccProfile: return true
        case .codePoints(let primaries, let transfer, _, _): return !ColourPrimaries.isSRGB(primaries: primaries, transfer: transfer)
        case .gamma(let gamma, let chromaticities): return !ColourPrimaries.isSRGB(gamma: gamma, chromaticities: chromaticities)
        }
    }

    /// Why the colour engine cannot use a description that our own checks pass (`validate
    /// --deep`, IG-BLB-020): Little CMS cannot open the profile or build its transform, or the
    /// profile is for other pixels than the image's. Nil when it can, when there is nothing to
    /// convert, or when our checks refuse the description already (their own diagnostics).
    package static func engineProblem(_ type: MediaType, size: UInt64, read: (UInt64, Int) throws -> [UInt8]) -> String? {
        withoutActuallyEscaping(read) { read -> String? in
            guard type != .gif, let reading = try? ColourDescription.of(type, size: size, read: read),
                  reading.structuralProblem == nil else { return nil }
            do {
                guard let transform = try ColourTransform.toSRGB(from: reading.description) else { return nil }
                return mismatch(of: transform.layout, size: size, read: read, as: type)
            } catch {
                return (error as? ColourProblem)?.message ?? "\(error)"
            }
        }
    }

    /// A profile for pixels the image does not have (a grey profile on colour pixels, CMYK on
    /// anything but a CMYK JPEG), which browsers ignore too.
    static func mismatch(of layout: ColourTransform.Layout, with bytes: [UInt8], as type: MediaType) -> String? {
        mismatch(of: layout, size: UInt64(bytes.count), read: bytes.bytes(at:count:), as: type)
    }

    static func mismatch(of layout: ColourTransform.Layout, size: UInt64, read: (UInt64, Int) throws -> [UInt8],
                         as type: MediaType) -> String? {
        let found: ColourTransform.Layout?
        switch type {
        case .jpeg:
            let components = (try? JPEGStructure.decodingFrame(size: size, read: read))?.components.count
            found = switch components {
            case 1: .grey
            case 3: .rgba
            case 4: .invertedCMYK
            default: nil
            }
        case .png:
            // IHDR's colour type: 0 and 4 are grey.
            let head = (try? read(0, 26)) ?? []
            found = head.count > 25 ? ([0, 4].contains(head[25]) ? .grey : .rgba) : nil
        default:
            // The other decoders write grey as red, green and blue alike, which a grey profile reads.
            found = layout == .invertedCMYK ? .rgba : layout
        }
        guard let found, found != layout else { return nil }
        func name(_ layout: ColourTransform.Layout) -> String {
            switch layout {
            case .rgba: "RGB"
            case .grey: "grey"
            case .invertedCMYK: "CMYK"
            }
        }
        return "the \(type.name) image's colour profile is for \(name(layout)) pixels, and its pixels are \(name(found))"
    }
}
