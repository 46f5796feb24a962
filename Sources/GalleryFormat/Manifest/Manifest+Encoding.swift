import FoundationEssentials

/// The manifest codec: `Gallery` ⇄ the bytes of `manifest.json`.
public enum Manifest {
    /// The canonical bytes of the gallery's manifest.
    public static func encode(_ gallery: Gallery) -> [UInt8] {
        var writer = CanonicalJSONWriter(capacity: 512 + gallery.images.count * 400)
        writer.write(document(gallery))
        writer.finishDocument()
        return writer.bytes
    }

    /// The canonical bytes of the gallery's manifest, handed to `sink` about a megabyte at a time
    /// as they are written: a save of 100,000 images never holds its 37 MB manifest whole.
    static func write(_ gallery: Gallery, to sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        var failure: (any Error)?
        try withoutActuallyEscaping(sink) { sink in
            var writer = CanonicalJSONWriter(capacity: CanonicalJSONWriter.spillSize + (64 << 10))
            writer.spill = { bytes in
                if failure == nil {
                    do { try bytes.withUnsafeBytes(sink) } catch { failure = error }
                }
                bytes.removeAll(keepingCapacity: true)
            }
            writer.write(document(gallery))
            writer.finishDocument()
            if let failure { throw failure }
            try writer.bytes.withUnsafeBytes(sink)
        }
    }

    /// The length of the gallery's canonical manifest, written a megabyte at a time and
    /// counted, never held: the check of the manifest's size limit on every edit of a large
    /// gallery made a 37 MB copy of it.
    static func encodedSize(_ gallery: Gallery) -> Int {
        var size = 0
        // The sink never throws.
        try? write(gallery) { size += $0.count }
        return size
    }

    /// The manifest as the writer's value, its images made one at a time as they are written.
    private static func document(_ gallery: Gallery) -> CanonicalJSONWriter.Value {
        typealias V = CanonicalJSONWriter.Value
        // Members are listed in canonical (byte) order of their keys.
        var top: [(String, V)] = []
        if let cover = gallery.cover { top.append(("cover", .string(cover.manifestString))) }
        top += [
            ("created", .string(gallery.created.rfc3339)),
            ("format", .string("imagegallery")),
            ("formatVersion", .string(gallery.writtenFormatVersion.description)),
        ]
        if let generator = gallery.generator { top.append(("generator", .string(generator))) }
        top.append(("id", .string(gallery.id.manifestString)))
        top.append(("images", .elements(count: gallery.images.count) { index in
            let image = gallery.images[index]
            var members: [(String, V)] = []
            if let added = image.added { members.append(("added", .string(added.rfc3339))) }
            members.append(("byteSize", .integer(Int64(image.byteSize))))
            if let caption = image.caption { members.append(("caption", .string(caption))) }
            if let filename = image.filename { members.append(("filename", .string(filename))) }
            members.append(("height", .integer(Int64(image.height))))
            members.append(("id", .string(image.id.manifestString)))
            members.append(("mediaType", .string(image.mediaType.rawValue)))
            members.append(("path", .string(image.path)))
            members.append(("sha256", .string(image.sha256.hex)))
            if let source = image.source { members.append(("source", .string(source))) }
            members.append(("width", .integer(Int64(image.width))))
            return V.object(ManifestMember.merged(members, image.keptMembers))
        }))
        top.append(("modified", .string(gallery.modified.rfc3339)))
        top.append(("revision", .string(gallery.revision.manifestString)))
        top.append(("title", .string(gallery.title)))
        return .object(ManifestMember.merged(top, gallery.keptMembers))
    }
}

extension Manifest {
    /// A revision id derived from the content: the manifest written with the nil revision,
    /// hashed. Saving the same content twice gives the same revision.
    public static func contentRevision(of gallery: Gallery) -> UUID {
        var blank = gallery
        blank.revision = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        let digest = SHA256Hasher.of(encode(blank))
        return UUID.nameBased(namespace: gallery.id, name: "revision:" + digest.hex)
    }
}
