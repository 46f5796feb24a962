import GalleryFormat
import GalleryImageHeaders

/// Decodes images for `validate --deep`: PNG streamed in one row of memory, JPEG whole at
/// 1/8 scale (every scan is still entropy-decoded), WebP, GIF, AVIF and HEIC whole (their first
/// frame). JPEG and format 2.0 decodes share one memory budget, so the validator's workers
/// together stay within it.
public struct ImagePixelChecker: PixelChecker {
    /// The limits of each decode; their `maxBytes` is also the memory all concurrent decodes
    /// share.
    public let limits: DecodeLimits
    private let budget: MemoryBudget

    /// `limits.maxBytes` is the budget all concurrent decodes share.
    public init(limits: DecodeLimits = DecodeLimits(maxBytes: 64 << 20)) {
        self.limits = limits
        budget = MemoryBudget(total: limits.maxBytes)
    }

    /// Decodes one blob of `mediaType` and says whether its pixels are sound, corrupt or past the
    /// limits (`maxPixels` overriding the pixel limits for this blob, as the thumbnail's is). Never
    /// throws: any failure is a verdict, so one bad blob does not stop the validation of the rest.
    public func check(_ mediaType: MediaType, size: UInt64, maxPixels: Int?,
                      read: (UInt64, Int) throws -> [UInt8]) -> PixelVerdict {
        var limits = limits
        if let maxPixels {
            limits.maxPixels = maxPixels
            limits.maxWorkPixels = maxPixels
        }
        do {
            switch mediaType {
            case .png: try checkPNG(size: size, limits: limits, read: read)
            case .jpeg: try checkJPEG(size: size, limits: limits, read: read)
            case .webp, .gif, .avif, .heic: try checkFormatTwo(mediaType, size: size, limits: limits, read: read)
            }
            return .sound
        } catch let error as ImageDecodeError {
            return error.kind == .pastLimit ? .pastLimit(error.message) : .corrupt(error.message)
        } catch {
            return .corrupt("\(error)")
        }
    }

    /// Little CMS's verdict on the image's colour description (issue 31), after the
    /// validator's own checks of it.
    public func colourProblem(_ mediaType: MediaType, size: UInt64, read: (UInt64, Int) throws -> [UInt8]) -> String? {
        ColourPlan.engineProblem(mediaType, size: size, read: read)
    }

    private func checkPNG(size: UInt64, limits: DecodeLimits, read: (UInt64, Int) throws -> [UInt8]) throws {
        // libpng's own allocations are capped per decode; rows are dropped as they come.
        var perDecode = limits
        perDecode.maxBytes = min(limits.maxBytes, 16 << 20)
        let decoder = try PNGDecoder(limits: perDecode)
        var offset: UInt64 = 0
        do {
            while offset < size && !decoder.isFinished {
                let chunk = try read(offset, 1 << 20)
                guard !chunk.isEmpty else { break }
                try decoder.feed(chunk)
                offset += UInt64(chunk.count)
            }
            try decoder.finish()
        } catch let error as ImageDecodeError where error.kind == .pastLimit {
            // libpng judges a chunk's declared length before it sees that the file ends first:
            // a length no file of this size can hold is damage, not a large image.
            if let broken = try PNGDecoder.chunkPastEnd(size: size, read: read) { throw broken }
            throw error
        }
    }

    /// The first frame decoded whole, by the library, within a reservation of the shared
    /// budget that the header sets; the decoded size must be the header's (IG-BLB-008).
    private func checkFormatTwo(_ type: MediaType, size: UInt64, limits: DecodeLimits,
                                read: (UInt64, Int) throws -> [UInt8]) throws {
        let header = try ImageHeaderError.asDecodeError { try ImageHeader.parse(size: size, read: read) }
        guard header.mediaType == type else {
            throw ImageDecodeError(.corrupt, "the blob is \(header.mediaType.described), not \(type.rawValue)")
        }
        guard size <= UInt64(limits.maxBytes) else {
            throw ImageDecodeError(.pastLimit, "the blob is \(size >> 20) MiB, past the memory limit of \(limits.maxBytes >> 20) MiB")
        }
        let needed = DecodedFrame.memoryToDecode(header, byteCount: Int(size), leading: try read(0, 16))
        try budget.withReservation(min(needed, limits.maxBytes)) {
            let bytes = try read(0, Int(size))
            if type == .avif || type == .heic {
                // Every row decoded and converted, none kept.
                _ = try DecodedFrame.decodeRows(bytes, as: type, limits: limits) { _ in }
            } else {
                _ = try DecodedFrame.decode(bytes, as: type, limits: limits)
            }
        }
    }

    private func checkJPEG(size: UInt64, limits: DecodeLimits, read: (UInt64, Int) throws -> [UInt8]) throws {
        let needed = try JPEGDecoder.memoryToVerify(size: size, read: read)
        try budget.withReservation(needed) {
            let bytes = try read(0, Int(size))
            try bytes.withUnsafeBytes { try JPEGDecoder.verify($0, limits: limits) }
        }
    }
}
