import GalleryFormat
import GalleryImageHeaders
import GalleryImaging

/// What makes a response an image the toolkit accepts: a 2xx status, a `Content-Type` of a
/// type the format takes, leading bytes of that same type, and a header that parses within the
/// imaging limits.
extension ImageFetcher {
    static let acceptedTypes: [String: MediaType] = Dictionary(uniqueKeysWithValues: MediaType.allCases.map { ($0.rawValue, $0) })

    func bodyRules(for url: String) -> BodyRules {
        BodyRules(
            maxBytes: options.maxImageBytes,
            checkHead: { exchange throws in
                _ = try Self.checkType(url: url, contentType: exchange.field("content-type"))
            },
            checkLeadingBytes: { exchange, bytes throws in
                let declared = try Self.checkType(url: url, contentType: exchange.field("content-type"))
                try Self.checkMagic(url: url, declared: declared, bytes: bytes)
            },
            leadingByteCount: ImageKind.identifyingBytes)
    }

    /// The declared media type (lowercased, without parameters), if it is one accepted.
    static func checkType(url: String, contentType: String?) throws -> String {
        let declared = contentType.map {
            ($0.split(separator: ";").first.map(String.init) ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        }
        guard let declared, acceptedTypes[declared] != nil else {
            throw FetchFailure(url: url, reason: .notAnImageType(contentType))
        }
        return declared
    }

    static func checkMagic(url: String, declared: String, bytes: [UInt8]) throws {
        let found = MediaType.sniff(bytes)
        guard let expected = acceptedTypes[declared], found == expected else {
            throw FetchFailure(url: url, reason: .typeMismatch(declared: declared, found: describe(bytes, sniffed: found)))
        }
    }

    /// What the bytes look like, for the error message. Image types are told by
    /// ``ImageKind``, as for files: "a TIFF image; this gallery format takes JPEG, PNG, WebP, GIF, AVIF and HEIC".
    static func describe(_ bytes: [UInt8], sniffed: MediaType?) -> String {
        if let sniffed { return sniffed.described }
        if bytes.isEmpty { return "empty" }
        let kind = ImageKind.identify(bytes)
        if case .unsupported = kind, let refusal = kind.refusal { return refusal }
        let head = String(decoding: bytes.prefix(64), as: UTF8.self).lowercased()
        let trimmed = head.drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\u{FEFF}" }
        if trimmed.hasPrefix("<!doctype html") || trimmed.hasPrefix("<html") { return "an HTML page" }
        if trimmed.hasPrefix("<") { return "markup (XML or HTML)" }
        if trimmed.hasPrefix("{") || trimmed.hasPrefix("[") { return "JSON or text" }
        return "\(ImageKind.notAnImage) (they start with \(bytes.prefix(4).map { String(format: "%02x", $0) }.joined()))"
    }

    /// The whole-body checks, for fresh transfers and cached copies alike.
    func accept(url: String, finalURL: String, response: CachedResponse, origin: FetchedImage.Origin)
        throws -> FetchedImage {
        let declared = try Self.checkType(url: url, contentType: response.field("content-type"))
        try Self.checkMagic(url: url, declared: declared, bytes: response.body)
        guard response.body.count <= options.maxImageBytes else {
            throw FetchFailure(url: url, reason: .tooLarge(limit: options.maxImageBytes))
        }
        let header: ImageHeader
        do {
            header = try ImageHeader.parse(response.body)
        } catch {
            throw FetchFailure(url: url, reason: .badImage("\(error)"))
        }
        let limits = options.imageLimits
        // The image's own size bounds the work of decoding it; what a decode holds is bounded
        // where it is decoded, at its scale (a 108-megapixel photo is thumbnailed at 1/8).
        if header.width > limits.maxSide || header.height > limits.maxSide
            || header.width * header.height > limits.maxWorkPixels {
            throw FetchFailure(url: url, reason: .badImage(
                "\(header.width)×\(header.height) pixels is past the limit of \(limits.maxWorkPixels) pixels"))
        }
        return FetchedImage(url: url, finalURL: finalURL, data: response.body, header: header, origin: origin,
                            lastModified: response.lastModified.flatMap(HTTPDate.parse))
    }
}

import Foundation
