import GalleryFormat
import GalleryImageHeaders

/// An image fetched and checked: its bytes are an image of a type the format takes, whose header parses within
/// the limits, and its type agrees with what the server said.
public struct FetchedImage: Sendable {
    /// Where the bytes came from this time: the network, the cache alone, or the cache confirmed
    /// by the server. Reports show it so that a user can see what a run cost.
    public enum Origin: String, Sendable, Codable {
        /// Transferred from the server.
        case network
        /// Served from the cache without asking the server.
        case cache
        /// The server confirmed the cached copy (304): no body was transferred.
        case revalidated
    }

    /// The URL as given (a fragment included), which is what a gallery records as the source.
    public var url: String
    /// Where the bytes came from after redirects.
    public var finalURL: String
    /// The image's bytes as served, unchanged: what becomes the blob of a gallery.
    public var data: [UInt8]
    /// The image's header, parsed from ``data``: its type and size, for the manifest.
    public var header: ImageHeader
    /// Whether this fetch used the network, the cache, or both.
    public var origin: Origin
    /// `Last-Modified` in seconds since 1970, if the server sent it.
    public var lastModified: Int64?

    /// A file name for the image: the URL path's last component, percent-decoded, when it is
    /// a safe name.
    public var suggestedFilename: String? {
        guard let path = URLComponents(string: finalURL)?.path,
              let last = GalleryFileSystem.components(of: path).last?.removingPercentEncoding,
              GalleryImage.isSafeFilename(last) else { return nil }
        return last
    }
}

import Foundation
import GallerySystem
