import GalleryDocument

/// What every route shares: who may ask, what is open, where renditions are kept.
package struct EditorState: Sendable {
    package let access: EditorAccess
    package let library: GalleryLibrary
    package let desk: DocumentDesk
    package let events: EditorEvents
    package let thumbnails: ImageThumbnails
    package let documentOptions: DocumentOptions
    package let limits: EditorLimits

    package init(access: EditorAccess, roots: EditorRoots, documentOptions: DocumentOptions, limits: EditorLimits = EditorLimits(),
                 thumbnails: ImageThumbnails = ImageThumbnails()) {
        self.access = access
        self.limits = limits
        library = GalleryLibrary(roots: roots)
        events = EditorEvents()
        desk = DocumentDesk(library: library, events: events, options: documentOptions)
        self.thumbnails = thumbnails
        self.documentOptions = documentOptions
    }
}
