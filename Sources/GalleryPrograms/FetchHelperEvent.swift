/// One line of the fetch helper's standard output, a JSON object, written as things happen so
/// that `imagegallery` can draw progress.
///
/// The lines come in this order: `start` (the spool folder and the number of distinct
/// resources), then a `result` per distinct resource as it finishes, `discarded` for each
/// damaged cache entry, and `end`. A helper that stops without `end` has failed.
package struct FetchHelperEvent: Codable, Sendable {
    package enum Kind: String, Codable, Sendable {
        case start, result, discarded, end
    }

    package var event: Kind
    /// `start`: the folder the images are written to; the caller removes it when done.
    package var spool: String?
    /// `start`: fetches to be made (URLs differing only in their fragment count once).
    package var resources: Int?
    /// `result`, `discarded`.
    package var url: String?
    /// `result`, when the image was fetched and kept.
    package var image: SpooledImageRecord?
    /// `result`, when it was not.
    package var failure: FailureRecord?

    package init(event: Kind, spool: String? = nil, resources: Int? = nil, url: String? = nil,
                image: SpooledImageRecord? = nil, failure: FailureRecord? = nil) {
        self.event = event
        self.spool = spool
        self.resources = resources
        self.url = url
        self.image = image
        self.failure = failure
    }

    /// An image written to the spool, with what the gallery needs to know of it, so that the
    /// caller does not read it twice.
    package struct SpooledImageRecord: Codable, Sendable {
        package var path: String
        /// `image/jpeg` or `image/png`.
        package var mediaType: String
        package var width: Int
        package var height: Int
        package var bitDepth: Int
        package var interlaced: Bool
        package var byteSize: UInt64
        package var sha256: String
        package var crc32: UInt32
        /// The last component of the URL's path, when it is a safe file name.
        package var filename: String?
        /// `Last-Modified`, in seconds since 1970.
        package var lastModified: Int64?
        /// `network`, `cache` or `revalidated`.
        package var origin: String

        package init(path: String, mediaType: String, width: Int, height: Int, bitDepth: Int, interlaced: Bool,
                    byteSize: UInt64, sha256: String, crc32: UInt32, filename: String?, lastModified: Int64?, origin: String) {
            self.path = path
            self.mediaType = mediaType
            self.width = width
            self.height = height
            self.bitDepth = bitDepth
            self.interlaced = interlaced
            self.byteSize = byteSize
            self.sha256 = sha256
            self.crc32 = crc32
            self.filename = filename
            self.lastModified = lastModified
            self.origin = origin
        }
    }

    /// Why a URL gave no image: a code from Specs/fetching.md and a message.
    package struct FailureRecord: Codable, Sendable {
        package var code: String
        package var message: String

        package init(code: String, message: String) {
            self.code = code
            self.message = message
        }
    }
}

/// What `imagegallery-fetch cache info` and `cache clear` print.
package struct CacheSummary: Codable, Sendable {
    package var directory: String
    package var entries: Int
    package var bytes: Int
    package var diskCapacity: Int
    package var memoryCapacity: Int

    package init(directory: String, entries: Int, bytes: Int, diskCapacity: Int, memoryCapacity: Int) {
        self.directory = directory
        self.entries = entries
        self.bytes = bytes
        self.diskCapacity = diskCapacity
        self.memoryCapacity = memoryCapacity
    }
}
