import Foundation
import GalleryConvert
import GalleryDocument
import GalleryFormat
import GalleryMetadata
import GallerySystem
import SystemPackage

/// A copy of a gallery to give to others, written beside it without what the user chose to
/// remove: a gallery file ("NAME (shared).imagegallery") or a web gallery folder ("NAME web").
/// Never over anything (the next free name is taken), and whole or not at all.
package enum GalleryShare {
    /// What the copy is.
    package enum Form: String, Codable, Sendable {
        case gallery, web
    }

    /// Where the copy went and what it lacks.
    package struct Outcome: Codable, Sendable {
        package var form: Form
        /// The copy's file or folder.
        package var path: String
        /// Its last component, as the page names it.
        package var name: String
        /// The folder it is in: the gallery's own.
        package var folder: String
        package var removed: MetadataRemoval
    }

    /// The gallery file at `source` copied beside it as "STEM (shared).imagegallery" (or
    /// "(shared 2)"…) with a new identity, so that versions and sync copies of the two are never
    /// confused, and `scope` stripped from its images through the document layer, as `strip`
    /// does. The copy is made under a hidden name and shown under its own only once stripped:
    /// a failure leaves nothing. An image whose metadata cannot be removed fails the share, since
    /// a copy that kept it would say less than it holds (the web gallery's writer refuses alike).
    package static func galleryCopy(of source: String, scope: MetadataScope, options: DocumentOptions) async throws -> Outcome {
        let folder = FilePath(source).removingLastComponent()
        let stem = GalleryFileSystem.splitExtension(GalleryFileSystem.fileName(of: source)).stem
        let hidden = folder.appending(".\(stem) (sharing \(UUID().uuidString.lowercased())).imagegallery")
        defer { GalleryFileSystem.remove(hidden) }
        let imageCount = try await ImagePrivacyCache.offThePool { Result { try writeCopy(of: source, to: hidden.string) } }.get()
        var removed = MetadataRemoval(nothingOf: imageCount)
        if !scope.isEmpty {
            var options = options
            options.autosaves = false
            options.lockWait = .zero
            let document = GalleryDocument(path: hidden.string, options: options)
            try await document.open()
            do {
                let report = try await document.stripMetadata(scope)
                if let left = report.left.first {
                    throw EditorError.badRequest("photo \(left.position): its \(scope.description) cannot be removed (\(left.reason)); "
                                                 + "nothing was shared")
                }
                removed = MetadataRemoval(report, scope: scope, imageCount: imageCount)
                _ = try await document.close()
            } catch {
                _ = try? await document.close()
                throw error
            }
        }
        for attempt in 1 ... 1000 {
            let target = folder.appending(stem + (attempt == 1 ? " (shared)" : " (shared \(attempt))") + ".imagegallery")
            do {
                try GalleryFileSystem.moveNoReplace(hidden, to: target)
            } catch let error as FileSystemError where error.kind == .alreadyExists {
                continue
            }
            return Outcome(form: .gallery, path: target.string, name: GalleryFileSystem.fileName(of: target.string),
                           folder: folder.string, removed: removed)
        }
        throw EditorError.badRequest("\(folder): every name for a shared copy of \(stem) is taken")
    }

    /// Writes the gallery at `source` to `target` with a new id and revision, its blobs copied
    /// as they are stored; returns its number of images.
    static func writeCopy(of source: String, to target: String) throws -> Int {
        let reader = try GalleryReader(path: source)
        var gallery = reader.gallery
        gallery.id = UUID()
        gallery.revision = UUID()
        gallery.modified = max(Timestamp.now, gallery.created)
        try GalleryWriter.write(gallery, thumbnail: try reader.thumbnail(), to: target, overwrite: false) { image in
            .entry(reader.archive, try reader.blobEntry(for: image))
        }
        return gallery.images.count
    }

    /// The gallery file at `source` as a web gallery folder beside it, "STEM web" (or "STEM
    /// web 2"…), its images without `scope` (the writer strips as it copies, and refuses an
    /// image it cannot strip). `privacy` is what each blob carries, from which the fields
    /// removed are told (the writer reports a count only).
    package static func webCopy(of source: String, scope: MetadataScope, gallery: Gallery,
                                privacy: [SHA256Digest: ImagePrivacy]) async throws -> Outcome {
        let folder = FilePath(source).removingLastComponent()
        let stem = GalleryFileSystem.splitExtension(GalleryFileSystem.fileName(of: source)).stem
        let written: Result<String, any Error> = await ImagePrivacyCache.offThePool {
            Result {
                for attempt in 1 ... 1000 {
                    let target = folder.appending(stem + (attempt == 1 ? " web" : " web \(attempt)")).string
                    do {
                        _ = try WebGalleryWriter.write(galleryAt: source, to: target, overwrite: false, strip: scope)
                    } catch let error as ConversionError where error.kind == .outputExists {
                        continue
                    }
                    return target
                }
                throw EditorError.badRequest("\(folder): every name for a web gallery of \(stem) is taken")
            }
        }
        let target = try written.get()
        return Outcome(form: .web, path: target, name: GalleryFileSystem.fileName(of: target), folder: folder.string,
                       removed: MetadataRemoval(predicting: scope, of: gallery, privacy: privacy))
    }
}
