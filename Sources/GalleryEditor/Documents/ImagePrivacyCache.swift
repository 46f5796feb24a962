import Dispatch
import GalleryDocument
import GalleryFormat
import GalleryMetadata
import GallerySystem
import Synchronization

/// What each image carries that says where it was taken or who took it, read from the image's
/// own bytes when a page first asks and kept in this process's memory by SHA-256.
///
/// A blob's bytes never change for a digest, so an entry never goes stale: an undo, a second
/// gallery holding the same photo or a page that asks again reads nothing. Nothing of it is
/// written anywhere, the manifest least of all (a hostile writer could make one claim "none").
package final class ImagePrivacyCache: Sendable {
    /// Entries kept at most (each a few short strings); past it the cache starts again.
    static let capacity = 250_000
    private let entries = Mutex<[SHA256Digest: ImagePrivacy]>([:])

    package init() {}

    /// What each image of the document's current content carries, by SHA-256 (with entries of
    /// other images besides: look up, never count), and that content.
    /// Blobs the document's file holds are read from the file, through the document's own
    /// reader (opening the file again would parse the whole gallery again), in one pass off
    /// Swift's cooperative pool (the document's own lookup is by id, linear per image); the
    /// others (added or stripped since the last save) from the document.
    package func privacy(of document: GalleryDocument) async throws -> (gallery: Gallery, privacy: [SHA256Digest: ImagePrivacy]) {
        let gallery = try await document.gallery
        var known: [SHA256Digest: ImagePrivacy] = [:]
        var missing: [SHA256Digest: GalleryImage] = [:]
        entries.withLock { cache in
            for image in gallery.images where cache[image.sha256] == nil { missing[image.sha256] = image }
            // The cache itself, shared: a page asks after every edit, and a dictionary of the
            // 100,000 entries made anew each time was 19 MB and a tenth of a save's processor.
            known = cache
        }
        guard !missing.isEmpty else { return (gallery, known) }
        let wanted = Set(missing.keys)
        var read: [SHA256Digest: ImagePrivacy] = [:]
        if let reader = await document.file?.reader {
            read = await Self.inTheBackground { Self.read(wanted, from: reader) }
        }
        for (digest, image) in missing where read[digest] == nil {
            // Not in the file (or not readable there): the document has it in memory, or it went
            // since. What fails to read is reported, not kept: it may read next time.
            if let large = Self.tooLarge(image) {
                read[digest] = large
                continue
            }
            do {
                read[digest] = ImageMetadata.privacy(of: try await document.imageData(of: image), type: image.mediaType)
            } catch {
                var unread = ImagePrivacy()
                unread.problems.append("\(error)")
                known[digest] = unread
            }
        }
        known.merge(read) { first, _ in first }
        entries.withLock { cache in
            if cache.count + read.count > Self.capacity { cache = [:] }
            cache.merge(read) { first, _ in first }
        }
        return (gallery, known)
    }

    /// The privacy of each blob of `digests` that the gallery file of `reader` holds. A blob
    /// that does not read (the reader checks it against its SHA-256) is left to the document.
    static func read(_ digests: Set<SHA256Digest>, from reader: GalleryReader) -> [SHA256Digest: ImagePrivacy] {
        var found: [SHA256Digest: ImagePrivacy] = [:]
        for image in reader.gallery.images where digests.contains(image.sha256) && found[image.sha256] == nil {
            guard let bytes = tooLarge(image) == nil ? try? PrivacySurvey.bytes(of: image, in: reader) : nil else { continue }
            found[image.sha256] = ImageMetadata.privacy(of: bytes, type: image.mediaType)
        }
        return found
    }

    /// The report of an image past the survey's size limit, which is not read; nil for the others.
    static func tooLarge(_ image: GalleryImage) -> ImagePrivacy? {
        guard image.byteSize > PrivacySurvey.maximumBlobBytes else { return nil }
        var unread = ImagePrivacy()
        unread.problems.append("\(image.byteSize) bytes, more than the \(PrivacySurvey.maximumBlobBytes) read for metadata")
        return unread
    }

    /// Runs blocking reads behind the page: on a thread of their own at a lower priority
    /// (`SystemThread.runInBackground`), off the cooperative pool as `offThePool`. The survey
    /// of a large gallery reads every photo, a core's work for seconds, which no page waits for
    /// while it scrolls.
    static func inTheBackground<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in SystemThread.runInBackground { continuation.resume(returning: body()) } }
    }

    /// Runs blocking reads on a dispatch thread, so that the requests the cooperative pool
    /// serves meanwhile (thumbnails, edits) are not held up behind them.
    static func offThePool<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: body()) }
        }
    }
}
