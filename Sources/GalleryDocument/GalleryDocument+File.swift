import GalleryFormat
import GallerySystem

// The file as the document last read or wrote it, for the programs around the document (an
// editor's listing of galleries, its privacy survey) that need what the file holds. Opening it
// again would parse the whole gallery again: at 100,000 images a 37 MB manifest and 100,000
// local headers each time, and a second copy of the image list in memory.
extension GalleryDocument {
    /// The file as last read or written: its reader, holding that revision open (it still reads
    /// as it was after another program replaces the file), and the file's identity then (to
    /// tell whether the file at ``path`` is still that revision). Nil while closed.
    public var file: (reader: GalleryReader, identity: FileIdentity)? {
        guard let reader, let diskRecord else { return nil }
        return (reader, diskRecord.identity)
    }
}

extension GalleryDocument {
    /// The gallery, and the identity of the file it is while it has no unsaved change (nil while
    /// it has): read in one step on the document, so that no edit or save falls between the two.
    public var galleryAsFiled: (gallery: Gallery, identity: FileIdentity?) {
        get throws { (try gallery, hasUnsavedChanges ? nil : diskRecord?.identity) }
    }
}
