import FoundationEssentials
import GalleryBuilder
import GalleryFormat
import GalleryImageHeaders
import GalleryImaging
import GallerySystem
import SystemPackage

// Edits: each makes a new snapshot of the content, so undo and redo are a move along the
// history, and undoing back to the saved snapshot is clean again.
extension GalleryDocument {
    /// Applies `change` to the content as one undoable edit; a change that changes nothing is
    /// not an edit.
    func edit(_ change: (inout Gallery) throws -> Void) throws {
        try requireEditable()
        var gallery = history[position].gallery
        try change(&gallery)
        // Removing the cover's image, however it went, makes the first image the cover again.
        gallery.settleCover()
        guard gallery != history[position].gallery else { return }
        // Refused here, before it is an edit: a saved file must be one every reader opens, or
        // the remove that would undo it could not open it either.
        if let broken = gallery.brokenRule() {
            let place = broken.location.jsonPointer.map { $0.isEmpty ? "" : " at \($0)" } ?? ""
            throw DocumentError(.breaksFormatRule(broken.code), path: path,
                                "\(broken.code.id)\(place): \(broken.message); nothing was changed")
        }
        history.removeSubrange((position + 1)...)
        history.append(Snapshot(gallery: gallery, generation: nextGeneration))
        nextGeneration += 1
        position += 1
        trimHistory()
        contentDidChange()
    }

    func contentDidChange() {
        if hasUnsavedChanges {
            if firstUnsavedEdit == nil { firstUnsavedEdit = ContinuousClock.now }
        } else {
            firstUnsavedEdit = nil
        }
        emit(.contentChanged(history[position].gallery))
        scheduleAutosave()
    }

    /// Takes back the last edit: the content returns to what it was before it, and undoing to
    /// the saved content leaves the document with no unsaved changes. Does nothing when there is
    /// nothing to undo (``canUndo``).
    /// - Throws: ``DocumentError/Kind/closed`` or ``DocumentError/Kind/editingDisabled``.
    public func undo() throws {
        try requireEditable()
        guard canUndo else { return }
        position -= 1
        contentDidChange()
    }

    /// Makes the last undone edit again. Does nothing when there is none (``canRedo``): an edit
    /// made after undoing drops what was undone.
    /// - Throws: ``DocumentError/Kind/closed`` or ``DocumentError/Kind/editingDisabled``.
    public func redo() throws {
        try requireEditable()
        guard canRedo else { return }
        position += 1
        contentDidChange()
    }

    // MARK: Images in

    /// Adds image files at `index` (the end when nil), in the order given. Each file is read
    /// once, for its header, SHA-256 and CRC-32; its bytes are copied when the document saves,
    /// which refuses a file that changed in between.
    @discardableResult
    public func insertImages(fromFiles paths: [String], at index: Int? = nil) throws -> [GalleryImage] {
        try requireEditable()
        return try insertImages(SourceImage.inspect(files: paths), at: index)
    }

    /// Adds one image file with what the gallery should say about it, rather than what its
    /// path says: the file name and the URL it was fetched from (the file is then a spooled
    /// copy). Read and copied like any added file.
    @discardableResult
    public func insertImage(fromFile path: String, filename: String?, source: String?, caption: String? = nil,
                            at index: Int? = nil) throws -> GalleryImage {
        try requireEditable()
        var image = try SourceImage(inspected: ImageFile.inspect(path))
        image.filename = filename
        image.source = source
        return try insertImages([image], captions: [caption], at: index)[0]
    }

    /// Adds images the gallery builder describes (files inspected, fetched images spooled,
    /// archive entries written out), in the order given, at `index` (the end when nil). Their
    /// bytes are copied when the document saves, which refuses a file that changed since it
    /// was hashed.
    @discardableResult
    public func insertImages(_ sources: [SourceImage], at index: Int? = nil) throws -> [GalleryImage] {
        try insertImages(sources, captions: sources.map { _ in nil }, at: index)
    }

    private func insertImages(_ sources: [SourceImage], captions: [String?], at index: Int?) throws -> [GalleryImage] {
        try requireEditable()
        let now = Timestamp.now
        let images = zip(sources, captions).map { source, caption in
            source.galleryImage(id: UUID(), caption: caption, added: now)
        }
        try insert(images, at: index)
        for source in sources where supplies[source.sha256] == nil && !isInReader(source.sha256) {
            let identity = try source.identity ?? FileIdentity.of(path: FilePath(source.path))
            supplies[source.sha256] = .file(path: source.path, crc32: source.crc32, identity: identity)
        }
        return images
    }

    /// Adds one image from its bytes.
    @discardableResult
    public func insertImage(data: [UInt8], filename: String? = nil, source: String? = nil, caption: String? = nil,
                            at index: Int? = nil) throws -> GalleryImage {
        try requireEditable()
        let header: ImageHeader
        do {
            header = try ImageHeader.parse(data)
        } catch {
            // A refused type is named once, as the header reader says it (ImageKind.refusal).
            let reason = (error as? ImageHeaderError)?.kind != nil ? "\(error)" : "its image header cannot be read: \(error)"
            throw DocumentError(.notAGallery, path: path, "\(filename ?? "the data"): \(reason)")
        }
        let sha = SHA256Hasher.of(data)
        let image = GalleryImage(id: UUID(), mediaType: header.mediaType, width: header.width, height: header.height,
                                 byteSize: UInt64(data.count), sha256: sha, source: source,
                                 filename: filename.flatMap { GalleryImage.isSafeFilename($0) ? $0 : nil },
                                 caption: caption, added: Timestamp.now)
        try insert([image], at: index)
        if supplies[sha] == nil && !isInReader(sha) { supplies[sha] = .bytes(data) }
        return image
    }

    private func insert(_ images: [GalleryImage], at index: Int?) throws {
        try edit { gallery in
            let at = index ?? gallery.images.count
            guard (0 ... gallery.images.count).contains(at) else {
                throw DocumentError(.indexOutOfRange, path: path,
                                    "position \(at + 1) is past the end (the gallery has \(gallery.images.count) images)")
            }
            gallery.images.insert(contentsOf: images, at: at)
        }
    }

    func isInReader(_ sha: SHA256Digest) -> Bool {
        if let readerBlobs { return readerBlobs.contains(sha) }
        let blobs = Set(reader?.gallery.images.map(\.sha256) ?? [])
        readerBlobs = blobs
        return blobs.contains(sha)
    }

    // MARK: Changing what is there

    /// Removes the images with these ids, as one edit. Their bytes leave the file at the next
    /// save, unless another image still uses them.
    /// - Throws: ``DocumentError/Kind/noSuchImage`` when an id names no image (then none is
    ///   removed); ``DocumentError/Kind/closed`` or ``DocumentError/Kind/editingDisabled``.
    public func removeImages(_ ids: [UUID]) throws {
        try edit { gallery in
            for id in ids { _ = try indexOf(id, in: gallery) }
            let doomed = Set(ids)
            gallery.images.removeAll { doomed.contains($0.id) }
        }
    }

    /// Moves an image to `index` in the resulting order.
    public func moveImage(_ id: UUID, to index: Int) throws {
        try edit { gallery in
            let from = try indexOf(id, in: gallery)
            guard (0 ..< gallery.images.count).contains(index) else {
                throw DocumentError(.indexOutOfRange, path: path,
                                    "position \(index + 1) is outside 1…\(gallery.images.count)")
            }
            let image = gallery.images.remove(at: from)
            gallery.images.insert(image, at: index)
        }
    }

    /// Sets the gallery's title, as one edit.
    /// - Throws: ``DocumentError/Kind/breaksFormatRule(_:)`` when the title breaks the format's
    ///   rule (more than 1,000 Unicode scalars, or U+0000), and nothing changes;
    ///   ``DocumentError/Kind/closed`` or ``DocumentError/Kind/editingDisabled``.
    public func setTitle(_ title: String) throws {
        try edit { $0.title = title }
    }

    /// Sets or (with nil or empty text) removes an image's caption.
    public func setCaption(_ caption: String?, of id: UUID) throws {
        try edit { gallery in
            let index = try indexOf(id, in: gallery)
            gallery.images[index].caption = caption.flatMap { $0.isEmpty ? nil : $0 }
        }
    }

    /// Makes the image with this id the gallery's cover, or with nil the first image again, as one
    /// edit. The next save writes a thumbnail of it (format section 7).
    /// - Throws: ``DocumentError/Kind/noSuchImage`` when the id names no image, and nothing changes;
    ///   ``DocumentError/Kind/closed`` or ``DocumentError/Kind/editingDisabled``.
    public func setCover(_ id: UUID?) throws {
        try edit { gallery in
            if let id { _ = try indexOf(id, in: gallery) }
            gallery.cover = id
        }
    }

    /// Moves (or with `copy`, copies) images into another open document at `index`, keeping
    /// their order. The destination gets the bytes from this document; ids it already uses are
    /// replaced with new ones.
    @discardableResult
    public func transferImages(_ ids: [UUID], to destination: GalleryDocument, at index: Int? = nil, copy: Bool = false)
        async throws -> [GalleryImage] {
        try requireEditable()
        guard destination !== self else {
            throw DocumentError(.indexOutOfRange, path: path, "an image cannot be transferred to its own gallery; move it")
        }
        let gallery = history[position].gallery
        let images = try ids.map { gallery.images[try indexOf($0, in: gallery)] }
        let supplies = try images.map { try supply(for: $0) }
        let received = try await destination.receive(images, supplies: supplies, at: index)
        if !copy { try removeImages(ids) }
        return received
    }

    func receive(_ images: [GalleryImage], supplies incoming: [BlobSupply], at index: Int?) throws -> [GalleryImage] {
        try requireEditable()
        let taken = Set(history[position].gallery.images.map(\.id))
        let placed = images.map { image in
            var image = image
            if taken.contains(image.id) { image.id = UUID() }
            return image
        }
        try insert(placed, at: index)
        for (image, supply) in zip(images, incoming) where supplies[image.sha256] == nil && !isInReader(image.sha256) {
            supplies[image.sha256] = supply
        }
        return placed
    }

    /// How another document can have this image's bytes.
    func supply(for image: GalleryImage) throws -> BlobSupply {
        if let supply = supplies[image.sha256] { return supply }
        if let reader, isInReader(image.sha256) { return .gallery(reader) }
        throw DocumentError(.noSuchImage, path: path, "the bytes of image \(image.id.manifestString) are not at hand")
    }

    func indexOf(_ id: UUID, in gallery: Gallery) throws -> Int {
        guard let index = gallery.images.firstIndex(where: { $0.id == id }) else {
            throw DocumentError(.noSuchImage, path: path, "no image has the id \(id.manifestString)")
        }
        return index
    }

    // MARK: Naming images

    /// The image a reference names: its position (1 is the first), its id or a unique start of
    /// it (at least 4 characters), or its file name when exactly one image has it.
    public func image(matching reference: String) throws -> GalleryImage {
        try ImageReference.resolve(reference, in: try gallery, path: path)
    }
}
