import GalleryImageHeaders

/// Blob and thumbnail checks: the manifest against the bytes it describes.
extension ValidationRun {
    mutating func checkBlobs(_ gallery: Gallery, archive: ZipArchive, contents: [String: EntryContent]) {
        var referenced = Set<String>()
        let condemned = Set(archive.entries.filter(\.hasProblem).map(\.name))
        for (index, image) in gallery.images.enumerated() {
            let name = image.path
            referenced.insert(name)
            let pointer = "/images/\(index)"
            func here(_ member: String) -> Location {
                Location(file: path, entry: name, jsonPointer: "\(pointer)/\(member)")
            }
            guard let entry = archive.entry(named: name) else {
                // Present but condemned by the central directory: reported there already.
                if condemned.contains(name) { continue }
                record(GalleryError(.blobMissing, "the manifest lists \(name) but the archive has no such entry",
                                    location: here("path")))
                continue
            }
            if entry.uncompressedSize != image.byteSize {
                record(GalleryError(.blobSizeMismatch, "the blob holds \(entry.uncompressedSize) bytes; the manifest says "
                                    + "\(image.byteSize)", location: here("byteSize")))
            }
            // An entry whose data could not be read was reported already.
            guard let content = contents[name] else { continue }
            if content.sha256 != image.sha256 {
                record(GalleryError(.blobHashMismatch, "the blob's SHA-256 is \(content.sha256.hex); the manifest says "
                                    + "\(image.sha256.hex)", location: here("sha256")))
            }
            guard let sniffed = content.sniffed, let header = content.header else {
                record(GalleryError(.blobTypeMismatch, "the blob starts with the signature of no type the format takes; the "
                                    + "manifest says \(image.mediaType.rawValue)", location: here("mediaType")))
                continue
            }
            if sniffed != image.mediaType {
                record(GalleryError(.blobTypeMismatch, "the blob is \(sniffed.rawValue) by its first bytes; the manifest says "
                                    + "\(image.mediaType.rawValue)", location: here("mediaType")))
                continue
            }
            switch header {
            case .success(let header) where header.width != image.width || header.height != image.height:
                record(GalleryError(.blobDimensionMismatch, "the image header says \(header.width)×\(header.height) "
                                    + "pixels; the manifest says \(image.width)×\(image.height)", location: here("width")))
            case .success:
                if let colour = content.colour {
                    record(GalleryError(colour.code, "\(colour.message); the image is read as sRGB",
                                        location: Location(file: path, entry: name)))
                }
            case .failure(let error):
                // A header that reads over a structure that does not hold together has an id of its own.
                record(GalleryError(error.diagnostic ?? .headerUnreadable(sniffed),
                                    error.diagnostic == nil ? "the \(sniffed.name) header cannot be read: \(error)"
                                        : error.diagnostic == .declaredSizeContradicted
                                            ? "the \(sniffed.name) image is not the size it declares: \(error.detail)"
                                            : "the \(sniffed.name) image does not hold together: \(error.detail)",
                                    location: Location(file: path, entry: name)))
            }
        }
        for entry in archive.entries where entry.name.hasPrefix(GalleryPackage.blobFolder) && !entry.isDirectory
            && !referenced.contains(entry.name) {
            record(GalleryError(.blobOrphan, "no image of the manifest refers to this blob",
                                location: Location(file: path, entry: entry.name)))
        }
    }

    /// The header from the bytes already read: all of them (`whole`), or the first; a stored
    /// entry whose header lies further in is read from the file, segment by segment.
    static func header(of entry: ZipEntry, in archive: ZipArchive, prefix: [UInt8],
                       whole: ((UInt64, Int) throws -> [UInt8])?) throws -> ImageHeader {
        // The thumbnail's data is --deep's to judge (IG-THM-007), not the header reader's.
        let checkingData = entry.name != GalleryPackage.thumbnailEntry
        if let whole {
            return try ImageHeader.parse(size: entry.uncompressedSize, checkingData: checkingData, read: whole)
        }
        if UInt64(prefix.count) < entry.uncompressedSize, let read = try archive.storedBytes(of: entry) {
            return try ImageHeader.parse(size: entry.uncompressedSize, checkingData: checkingData, read: read)
        }
        // A deflated blob's first bytes, with its real size: a reader whose view ends before
        // the size stops there rather than calling the image cut short.
        return try ImageHeader.parse(size: max(entry.uncompressedSize, UInt64(prefix.count)), checkingData: checkingData,
                                     read: prefix.bytes(at:count:))
    }

    /// `thumbnail.png`: present, a PNG, 8-bit, not interlaced, at most 1024 px, all from its header.
    mutating func checkThumbnail(_ archive: ZipArchive, contents: [String: EntryContent]) {
        let name = GalleryPackage.thumbnailEntry
        guard archive.entry(named: name) != nil else {
            // Present but condemned by the central directory (a zip bomb, say): reported there
            // already, as a condemned blob is.
            if archive.entries.contains(where: { $0.hasProblem && $0.name == name }) { return }
            record(GalleryError(.thumbnailMissing, "the archive has no thumbnail.png", location: Location(file: path)))
            return
        }
        guard let content = contents[name] else { return }
        let here = Location(file: path, entry: name)
        guard content.sniffed == .png, let result = content.header else {
            record(GalleryError(.thumbnailNotPNG, "thumbnail.png does not start with the PNG signature", location: here))
            return
        }
        let header: ImageHeader
        switch result {
        case .success(let parsed): header = parsed
        case .failure(let error):
            record(GalleryError(.thumbnailUnreadable, "the thumbnail's PNG header cannot be read: \(error)", location: here))
            return
        }
        if header.bitDepth != 8 {
            record(GalleryError(.thumbnailBitDepth, "the thumbnail has \(header.bitDepth)-bit samples; it must be 8-bit",
                                location: here))
        }
        if header.interlaced {
            record(GalleryError(.thumbnailInterlaced, "the thumbnail is interlaced; it must not be", location: here))
        }
        if max(header.width, header.height) > GalleryPackage.maxThumbnailSide {
            record(GalleryError(.thumbnailTooLarge, "the thumbnail is \(header.width)×\(header.height); neither side may "
                                + "exceed 1024 pixels", location: here))
        }
    }
}
