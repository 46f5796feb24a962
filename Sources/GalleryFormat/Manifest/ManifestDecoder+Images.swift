import FoundationEssentials
import GalleryImageHeaders

/// The `images` array and each image's members, checked against the v1 schema.
extension ManifestDecoder {
    mutating func imageList(_ scanner: inout JSONScanner) throws -> [GalleryImage]? {
        guard try expectKind(.array, &scanner, "an array") else { return nil }
        var images: [GalleryImage] = []
        var ids: [UUID: Int] = [:]
        images.reserveCapacity(expectedImages)
        ids.reserveCapacity(expectedImages)
        var complete = true
        try scanner.readArray { scanner, index in
            // Nothing of the images before is needed any more.
            scanner.discardConsumed()
            guard index < limits.maxImages else {
                throw scanner.error(.tooManyImages, "the gallery lists more than \(limits.maxImages) images")
            }
            let image: GalleryImage
            if usesPlainImages, let plain = self.plainImage(&scanner) {
                plainImages += 1
                image = plain
            } else if let general = try self.image(&scanner) {
                image = general
            } else {
                complete = false
                return
            }
            // One hash an image: the id goes in as it is looked up, and the first one's place
            // is put back if it was there already.
            if let first = ids.updateValue(index, forKey: image.id) {
                ids[image.id] = first
                report(.duplicateImageID, "image id \(image.id.manifestString) is also the id of image \(first)", scanner,
                       member: "id")
                complete = false
                return
            }
            images.append(image)
        }
        return complete ? images : nil
    }

    private mutating func image(_ scanner: inout JSONScanner) throws -> GalleryImage? {
        guard try expectKind(.object, &scanner, "an object") else { return nil }
        var id: UUID?
        var path: JSONScanner.RawString?
        var mediaType: MediaType?
        var width: Int?
        var height: Int?
        var byteSize: UInt64?
        var sha256: SHA256Digest?
        var shaRaw: JSONScanner.RawString?
        var source: String?
        var filename: String?
        var caption: String?
        var added: Timestamp?
        var kept: [ManifestMember] = []
        var valid = true
        let errorsBefore = diagnostics.count

        var seen: UInt32 = 0
        var unknown: Set<String> = []
        let keys = Self.imageKeys
        try scanner.readObject(checkDuplicates: false) { scanner, key in
            switch try Self.knownKey(key, keys, seen: &seen, unknown: &unknown, scanner) {
            case 0: id = try uuid(&scanner)
            case 1:
                if try expectKind(.string, &scanner, "a string") { path = try scanner.readRawString() }
            case 2:
                if let raw = try rawString(&scanner, maxScalars: 100) {
                    mediaType = raw.hasEscapes ? MediaType(rawValue: scanner.decodeString(raw)) : Self.mediaType(scanner.rawBytes(raw))
                    if mediaType == nil {
                        report(.badValue, "media type \"\(scanner.decodeString(raw))\" is not \(Self.mediaTypeNames)", scanner)
                    }
                }
            case 3: width = try integer(&scanner, in: ManifestRules.pixelDimensions).map { Int($0) }
            case 4: height = try integer(&scanner, in: ManifestRules.pixelDimensions).map { Int($0) }
            case 5: byteSize = try integer(&scanner, in: ManifestRules.byteSizes).map { UInt64($0) }
            case 6:
                if try expectKind(.string, &scanner, "a string") {
                    let raw = try scanner.readRawString()
                    shaRaw = raw
                    sha256 = raw.hasEscapes
                        ? Array(scanner.decodeString(raw).utf8).withUnsafeBytes { SHA256Digest(hexBytes: $0) }
                        : SHA256Digest(hexBytes: scanner.rawBytes(raw))
                    if sha256 == nil { report(.badValue, "sha256 must be 64 lowercase hexadecimal digits", scanner) }
                }
            case 7:
                source = try string(&scanner, maxScalars: ManifestRules.maxSourceScalars)
                if let text = source, !Self.isAbsoluteURI(text) {
                    report(.badValue, "source \"\(text.prefix(80))\" is not an absolute URI", scanner)
                }
                if !keepsText { source = nil }
            case 8:
                // Checked on its bytes, and made a String only when the reader keeps it.
                if let raw = try rawString(&scanner, maxScalars: ManifestRules.maxFilenameScalars, forbidsNUL: true) {
                    let text = raw.hasEscapes ? scanner.decodeString(raw) : nil
                    guard text.map(GalleryImage.isSafeFilename) ?? GalleryImage.isSafeFilename(utf8: scanner.rawBytes(raw)) else {
                        report(.badValue, "filename must be one path component of 1 to 255 bytes with no \"/\", \"\\\", "
                               + "NUL or control characters", scanner)
                        break
                    }
                    if keepsText { filename = text ?? scanner.decodeString(raw) }
                }
            case 9:
                let raw = try rawString(&scanner, maxScalars: ManifestRules.maxCaptionScalars)
                if keepsText { caption = raw.map { scanner.decodeString($0) } }
            case 10: added = try timestamp(&scanner)
            default: try keepUnknown(key, &scanner, into: &kept)
            }
        }
        // The seven required members are the first seven keys: one mask test in the common case.
        if seen & 0x7F != 0x7F {
            for (position, name) in ["id", "path", "mediaType", "width", "height", "byteSize", "sha256"].enumerated()
                where seen & (1 << position) == 0 {
                report(.missingMember, "the image lacks the required member \"\(name)\"", scanner)
                valid = false
            }
        }
        if diagnostics[errorsBefore...].contains(where: { $0.severity >= .error }) { valid = false }
        guard valid, let id, let path, let mediaType, let width, let height, let byteSize, let sha256 else { return nil }
        // Compared as bytes: building the expected name for every image would cost more than the check.
        let matches = path.hasEscapes || shaRaw!.hasEscapes
            ? scanner.decodeString(path) == GalleryImage.blobPath(sha256: sha256, mediaType: mediaType)
            : Self.isBlobPath(scanner.rawBytes(path), sha256Hex: scanner.rawBytes(shaRaw!), mediaType: mediaType)
        guard matches else {
            let expected = GalleryImage.blobPath(sha256: sha256, mediaType: mediaType)
            report(.badBlobPath, "path \"\(scanner.decodeString(path).prefix(120))\" should be \"\(expected)\" "
                   + "(images/<sha256>.<extension of the media type>)", scanner, member: "path")
            return nil
        }
        var image = GalleryImage(id: id, mediaType: mediaType, width: width, height: height, byteSize: byteSize,
                                 sha256: sha256, source: source, filename: filename, caption: caption, added: added)
        image.keptMembers = kept
        return image
    }
}
