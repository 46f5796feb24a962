import GalleryDocument

/// What every route shares: who may ask, what is open, where renditions are kept, what photos carry.
package struct EditorState: Sendable {
    package let access: EditorAccess
    package let library: GalleryLibrary
    package let desk: DocumentDesk
    package let events: EditorEvents
    package let thumbnails: ImageThumbnails
    /// What each photo carries (location, identity), by SHA-256, in memory only.
    package let privacy = ImagePrivacyCache()
    package let documentOptions: DocumentOptions
    package let limits: EditorLimits

    package init(access: EditorAccess, roots: EditorRoots, documentOptions: DocumentOptions, limits: EditorLimits = EditorLimits(),
                 thumbnails: ImageThumbnails = ImageThumbnails(), looks: FirstLooks? = FirstLooks()) {
        self.access = access
        self.limits = limits
        library = GalleryLibrary(roots: roots)
        events = EditorEvents()
        desk = DocumentDesk(library: library, events: events, options: documentOptions, looks: looks)
        self.thumbnails = thumbnails
        self.documentOptions = documentOptions
    }
}
