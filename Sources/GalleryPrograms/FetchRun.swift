import FoundationEssentials
import GalleryBuilder
import GalleryFormat
import GalleryImageHeaders
import GalleryImaging
import GallerySystem
import SystemPackage

/// A fetched image, written to the spool by the fetch helper: what `create` and `add` hold per
/// URL instead of its bytes, so that memory stays bounded however many URLs are given. The
/// image is the builder's own record of it; only where the helper had it from is added.
package struct SpooledImage: Sendable {
    /// The image in the spool, named by its path and dated by its Last-Modified, with no source
    /// or description yet: ``sourceImage(url:)`` gives it those.
    package var image: SourceImage
    /// "network", "cache" or "revalidated".
    package var origin: String

    package init(_ record: FetchHelperEvent.SpooledImageRecord) throws(FetchHelperClient.Failure) {
        guard let mediaType = MediaType(rawValue: record.mediaType), let sha256 = SHA256Digest(hex: record.sha256),
              GalleryFileSystem.isAbsolute(record.path), record.width > 0, record.height > 0 else {
            throw .garbled("the fetch helper described an image it spooled wrongly (\(record.path))")
        }
        let header = ImageHeader(mediaType: mediaType, width: record.width, height: record.height,
                                 bitDepth: record.bitDepth, interlaced: record.interlaced)
        image = SourceImage(name: record.path, path: record.path, header: header, byteSize: record.byteSize, sha256: sha256,
                            crc32: record.crc32, filename: record.filename, modified: record.lastModified)
        origin = record.origin
    }
}

/// Why a URL gave no image, as the fetch helper reported it.
package struct FetchItemFailure: Error, Sendable, CustomStringConvertible {
    package var url: String
    /// One of the codes of Specs/fetching.md, "Results".
    package var code: String
    package var message: String

    package var description: String { "\(url): \(message)" }
}

/// The URLs of one command or drop, fetched: a result per resource, and the spool folder holding the
/// images until they are in the gallery.
package struct FetchRun: Sendable {
    private var results: [String: Result<SpooledImage, FetchItemFailure>] = [:]
    package private(set) var spool: FilePath?

    package static let none = FetchRun()

    package var isEmpty: Bool { results.isEmpty }

    /// The result for a URL as given: URLs differing only in their fragment share one.
    package subscript(url: String) -> Result<SpooledImage, FetchItemFailure> {
        results[Self.resource(url)]
            ?? .failure(FetchItemFailure(url: url, code: "no-result", message: "the fetch helper gave no result for it"))
    }

    /// Called by the command when it is done with the images.
    package func removeSpool() {
        if let spool { try? GalleryFileSystem.removeTree(spool) }
    }

    /// The URL without its fragment, which is never sent.
    package static func resource(_ url: String) -> String {
        url.firstIndex(of: "#").map { String(url[..<$0]) } ?? url
    }

    /// The result one `result` event carries, for progress lines as they come.
    package static func result(of event: FetchHelperEvent, url: String) -> Result<SpooledImage, FetchItemFailure> {
        if let image = event.image {
            do {
                return .success(try SpooledImage(image))
            } catch {
                return .failure(FetchItemFailure(url: url, code: "garbled", message: "\(error)"))
            }
        }
        let failure = event.failure ?? .init(code: "unknown", message: "no reason given")
        return .failure(FetchItemFailure(url: url, code: failure.code, message: failure.message))
    }

    /// Images of a type the command does not take (`--accept`) become failures that say so
    /// (`not-accepted`), as if the fetch had refused them.
    /// Returns the failures made, for the caller to show.
    @discardableResult
    package mutating func refuse(typesOtherThan accepted: Set<MediaType>) -> [FetchItemFailure] {
        var refused: [FetchItemFailure] = []
        for (resource, result) in results.sorted(by: { $0.key < $1.key }) {
            guard case .success(let spooled) = result, !accepted.contains(spooled.image.header.mediaType) else { continue }
            let failure = FetchItemFailure(url: resource, code: "not-accepted",
                                           message: ImageKind.supported(spooled.image.header.mediaType).refusal(accepting: accepted)!)
            results[resource] = .failure(failure)
            refused.append(failure)
        }
        return refused
    }

    package mutating func record(_ event: FetchHelperEvent) throws(FetchHelperClient.Failure) {
        switch event.event {
        case .start:
            spool = event.spool.map { FilePath($0) }
        case .result:
            guard let url = event.url else { break }
            // A spooled image described wrongly is the helper's fault, not the URL's: it fails the run.
            if let image = event.image { _ = try SpooledImage(image) }
            results[Self.resource(url)] = Self.result(of: event, url: url)
        case .discarded, .end:
            break
        }
    }
}


extension SpooledImage {
    /// The image as the builder takes it: named by the URL it was fetched from (as given, so
    /// URLs differing only in their fragment keep their own), which is its source, and with
    /// the description its bytes carry, read only now.
    package func sourceImage(url: String) -> SourceImage {
        var named = image
        (named.name, named.source) = (url, url)
        named.description = ImageFile.description(ofFileAt: image.path)
        return named
    }
}
