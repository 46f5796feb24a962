import FoundationEssentials
import GalleryFormat
import GallerySystem
import SystemPackage

// When someone else wrote the file since we read it: their file stays where it is (it is the
// current version), a copy of it and our edits go to the version store, and the document
// reads theirs. Nothing of either side is lost.
extension GalleryDocument {
    func handleExternalChange(target: String) throws -> DocumentCloseResult {
        let theirs = try? GalleryReader(path: target)
        if !hasUnsavedChanges, let theirs, theirs.gallery.id == base?.id {
            // Clean: there is nothing of ours to keep, so theirs is simply read.
            try reload()
            return .unchanged
        }
        let ours = history[position].gallery
        let store = options.versionStore
        let baseManifest = try base.map { try store.keepBase($0, documentID: ours.id) }
        var version = try keepAsVersion(ours, others: [theirs].compactMap { $0 })
        version.baseManifest = baseManifest?.string
        try store.record(version)
        if let theirs { try keepCopyOfCurrent(theirs, at: target) }
        unresolved.append(version)
        emit(.conflict(version))
        do {
            try reload()
        } catch {
            // Theirs is gone or not a gallery: ours is safe in the store, and says so.
            saveError = error
        }
        setState(settledState())
        return .keptAsVersion(version.id)
    }

    private func reload() throws {
        try load()
        supplies = supplies.filter { !isInReader($0.key) }
        refreshUnresolved()
        setState(settledState())
        emit(.contentChanged(history[position].gallery))
    }

    /// Writes `gallery` into the version store. Blobs come from where they were added, else
    /// from `others` or the file as we read it, each read checked against its SHA-256 first,
    /// because a program that rewrote the file in place may have destroyed them. Images whose
    /// bytes survive nowhere are left out and listed in the record.
    func keepAsVersion(_ gallery: Gallery, others: [GalleryReader]) throws -> DocumentVersion {
        let store = options.versionStore
        let id = UUID()
        let file = try store.newFile(documentID: gallery.id, version: id)
        var sources: [SHA256Digest: BlobSource] = [:]
        for image in gallery.distinctBlobs {
            switch supplies[image.sha256] {
            case .file(let path, _, let identity)? where (try? FileIdentity.of(path: FilePath(path))) == identity:
                sources[image.sha256] = .file(path)
                continue
            case .bytes(let bytes)?:
                sources[image.sha256] = .bytes(bytes)
                continue
            case .gallery(let other)?:
                if other.holdsIntact(image) { sources[image.sha256] = .entry(other.archive, try other.blobEntry(for: image)) }
            case .stripped(let original, let source, let scope)?:
                // Made from the original wherever it survives intact.
                let candidates = [source] + (others + [reader].compactMap { $0 }).map { BlobSupply.gallery($0) }
                if let intact = candidates.first(where: { $0.holdsIntact(original) }) {
                    let supply = BlobSupply.stripped(original: original, source: intact, scope: scope)
                    sources[image.sha256] = .made { try supply.bytes(of: image) }
                }
                continue
            default:
                break
            }
            if sources[image.sha256] != nil { continue }
            for candidate in others + [reader].compactMap({ $0 }) where candidate.holdsIntact(image) {
                sources[image.sha256] = .entry(candidate.archive, try candidate.blobEntry(for: image))
                break
            }
        }
        var kept = gallery
        let missing = kept.images.filter { sources[$0.sha256] == nil }.map(\.id)
        kept.images.removeAll { sources[$0.sha256] == nil }
        kept.revision = UUID()
        kept.modified = max(Timestamp.now, kept.created)
        // From the sources just checked: the file as read may have been overwritten in place.
        // A thumbnail that cannot be made is not worth losing the version over.
        let thumbnail = try DocumentThumbnail.png(for: kept) { image in
            switch sources[image.sha256] {
            case .bytes(let bytes)?:
                return bytes
            case .file(let path)?:
                return try? GalleryFile.openForReading(FilePath(path)).read(at: 0, count: Int(image.byteSize))
            case .entry(let archive, _)?:
                guard let holder = (others + [reader].compactMap { $0 }).first(where: { $0.archive === archive }) else { return nil }
                return try? holder.blobBytes(image)
            case .made(let make)?:
                return try? make()
            default:
                return nil
            }
        }
        try GalleryWriter.write(kept, thumbnail: thumbnail, to: file.string, overwrite: false, durable: options.durable) { image in
            sources[image.sha256]!
        }
        return DocumentVersion(
            id: id, documentID: gallery.id, documentPath: try GalleryFileSystem.resolvedPath(FilePath(path)).string, origin: .ours,
            revision: kept.revision, parentRevisions: [base?.revision].compactMap { $0 },
            time: WallClock.date, host: CurrentProcess.hostName, isResolved: false, file: file.string,
            title: kept.title, imageCount: kept.images.count, missingImages: missing)
    }

    /// A copy of the file that won, so that a later overwrite cannot lose it either.
    private func keepCopyOfCurrent(_ theirs: GalleryReader, at target: String) throws {
        let store = options.versionStore
        let id = UUID()
        let destination = try store.newFile(documentID: theirs.gallery.id, version: id)
        let source = theirs.archive.file
        let size = try source.size
        try GalleryFileSystem.saveSafely(to: destination, replacing: false, durable: options.durable) { file in
            _ = try file.copy(from: source, at: 0, count: size, to: 0)
        }
        try store.record(DocumentVersion(
            id: id, documentID: theirs.gallery.id, documentPath: target, origin: .theirs,
            revision: theirs.gallery.revision, parentRevisions: [], time: WallClock.date,
            host: CurrentProcess.hostName, isResolved: true, file: destination.string,
            title: theirs.gallery.title, imageCount: theirs.gallery.images.count))
    }
}

extension GalleryReader {
    /// True when the image's blob reads back with the right SHA-256.
    func holdsIntact(_ image: GalleryImage) -> Bool {
        (try? readBlob(image) { _ in }) != nil
    }

    /// An image's bytes in memory (for a thumbnail), checked against its SHA-256.
    func blobBytes(_ image: GalleryImage) throws -> [UInt8] {
        var bytes: [UInt8] = []
        // The manifest's size is a claim (2^53 − 1 in a hostile one): readBlob checks it against
        // the entry, so it only sizes what is reserved before, up to what a photo takes.
        bytes.reserveCapacity(Int(min(image.byteSize, 64 << 20)))
        try readBlob(image) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// An image's bytes read again after they were checked against their SHA-256 once, with the
    /// entry's CRC-32 and size checked: what a save makes a stripped blob from. The save checks,
    /// before it commits, that the file is still as read, so a second digest would find nothing.
    func blobBytesCheckedBefore(_ image: GalleryImage) throws -> [UInt8] {
        let entry = try blobEntry(for: image)
        guard entry.uncompressedSize == image.byteSize else { return try blobBytes(image) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(min(image.byteSize, 64 << 20)))
        try archive.read(entry) { bytes.append(contentsOf: $0) }
        return bytes
    }
}
