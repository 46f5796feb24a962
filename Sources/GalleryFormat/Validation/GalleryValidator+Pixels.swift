import Dispatch
import FoundationEssentials
import GalleryImageHeaders
import Synchronization

/// `--deep`: the pixels of every blob and of the thumbnail, decoded under limits.
extension ValidationRun {
    /// Decodes each image whose bytes passed the earlier checks (its type known from its first
    /// bytes, its header readable); findings come in manifest order, then the thumbnail's.
    mutating func checkPixels(_ gallery: Gallery?, archive: ZipArchive, contents: [String: EntryContent],
                              with checker: any PixelChecker) {
        var queue: [(entry: ZipEntry, type: MediaType, pointer: String?)] = []
        var seen = Set<String>()
        for (index, image) in (gallery?.images ?? []).enumerated() where !seen.contains(image.path) {
            seen.insert(image.path)
            guard let entry = archive.entry(named: image.path), let content = contents[image.path],
                  let type = content.sniffed, case .success = content.header else { continue }
            queue.append((entry, type, "/images/\(index)"))
        }
        // A thumbnail past 1,024 px was reported (IG-THM-005) and is not decoded.
        if let entry = archive.entry(named: GalleryPackage.thumbnailEntry),
           let content = contents[entry.name], content.sniffed == .png, case .success(let header) = content.header,
           max(header.width, header.height) <= GalleryPackage.maxThumbnailSide {
            queue.append((entry, .png, nil))
        }

        let work = queue
        let verdicts = Mutex<[PixelVerdict?]>(Array(repeating: nil, count: work.count))
        let colours = Mutex<[String?]>(Array(repeating: nil, count: work.count))
        let next = Atomic<Int>(0)
        let deflatedLimit = options.maxDeflatedImageBytes
        DispatchQueue.concurrentPerform(iterations: min(ProcessInfo.processInfo.activeProcessorCount, max(work.count, 1))) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < work.count else { return }
                let item = work[index]
                let maxPixels = item.pointer == nil ? GalleryPackage.maxThumbnailSide * GalleryPackage.maxThumbnailSide : nil
                let verdict = Self.decode(item.entry, as: item.type, of: archive, checker: checker, maxPixels: maxPixels,
                                          deflatedLimit: deflatedLimit)
                verdicts.withLock { $0[index] = verdict }
                // A blob's colour description, as the pictures made from it meet it; a stored
                // one only, read where it lies (writers store images).
                if item.pointer != nil, let read = try? archive.storedBytes(of: item.entry),
                   let problem = checker.colourProblem(item.type, size: item.entry.uncompressedSize, read: read) {
                    colours.withLock { $0[index] = problem }
                }
            }
        }

        for (index, (item, verdict)) in zip(work, verdicts.withLock { $0 }).enumerated() {
            let here = Location(file: path, entry: item.entry.name, jsonPointer: item.pointer)
            if let problem = colours.withLock({ $0[index] }) {
                record(GalleryError(.colourDescriptionUnusable, "\(problem); the image is read as sRGB", location: here))
            }
            let isThumbnail = item.pointer == nil
            switch verdict! {
            case .sound:
                break
            case .corrupt(let message):
                record(GalleryError(isThumbnail ? .thumbnailPixelsCorrupt : .pixelsCorrupt(item.type),
                                    "the \(item.type.name) data does not decode: \(message)",
                                    location: here))
            case .pastLimit(let message):
                record(GalleryError(isThumbnail ? .thumbnailPixelsCorrupt : .blobPastDecodeLimit,
                                    "the pixels were not decoded: \(message)", location: here))
            }
        }
    }

    /// A stored entry is read straight from the file, as the checker asks; a deflated one
    /// (rare, from other writers) is inflated once, within `deflatedLimit`.
    static func decode(_ entry: ZipEntry, as type: MediaType, of archive: ZipArchive, checker: any PixelChecker,
                       maxPixels: Int?, deflatedLimit: Int) -> PixelVerdict {
        let size = entry.uncompressedSize
        do {
            if let read = try archive.storedBytes(of: entry) {
                return checker.check(type, size: size, maxPixels: maxPixels, read: read)
            }
            guard size <= UInt64(deflatedLimit) else {
                return .pastLimit("the deflated entry holds \(size) bytes; at most \(deflatedLimit) are inflated to decode")
            }
            let bytes = try archive.readAll(entry, limit: deflatedLimit)
            return checker.check(type, size: UInt64(bytes.count), maxPixels: maxPixels, read: bytes.bytes(at:count:))
        } catch {
            return .corrupt("\(error)")
        }
    }
}
