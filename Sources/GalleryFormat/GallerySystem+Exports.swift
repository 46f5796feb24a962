// GalleryFile, FileIdentity and FileSystemError are part of this module's own API: readers and
// writers take a GalleryFile, inspected images carry a FileIdentity, and a failing read or save
// throws a FileSystemError. Re-exported, so that a user of GalleryFormat has them with it.
@_exported public import GallerySystem
