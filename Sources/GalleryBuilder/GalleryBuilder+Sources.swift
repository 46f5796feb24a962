import FoundationEssentials
import GalleryFormat
import GalleryImageHeaders
import GalleryImaging
import GallerySystem
import SystemPackage

extension GalleryBuilder {
    /// The image files that sources name, in order: a file stands for itself; a folder gives
    /// its image files of the types the format takes (not its subfolders) in natural name order, so 2.jpg comes before
    /// 10.jpg. A folder's other files are `skipped`, its hidden files silently: a folder of
    /// photos often holds a sidecar or two, which should not stop the gallery.
    /// - Throws: ``GalleryBuildError`` naming a source that is missing, not a file or folder,
    ///   or a folder that cannot be listed.
    /// Only `accepted` types are taken from a folder (`--accept`); a file named itself is left to
    /// ``SourceImage/inspect(files:accepting:progress:)`` to refuse.
    public static func imageFiles(in sources: [String], accepting accepted: Set<MediaType> = Set(MediaType.allCases)) throws
        -> (images: [String], skipped: [String]) {
        var images: [String] = []
        var skipped: [String] = []
        for source in sources {
            let sourcePath = FilePath(source)
            switch PathKind.of(sourcePath) {
            case .missing:
                throw GalleryBuildError(.noSuchSource, path: source, "no such file or folder")
            case .other:
                throw GalleryBuildError(.notAFileOrFolder, path: source, "not a regular file or folder")
            case .regularFile:
                images.append(source)
            case .directory:
                let names: [String]
                do throws(FileSystemError) {
                    names = try GalleryFileSystem.entries(ofFolder: sourcePath)
                } catch {
                    throw GalleryBuildError(.cannotListFolder, path: source, "cannot list the folder: \(error.reason)",
                        underlying: error)
                }
                for name in names.sorted(by: NaturalOrder.areInIncreasingOrder) where !GalleryFileSystem.isHidden(name) {
                    let file = sourcePath.appending(name)
                    guard PathKind.of(file) == .regularFile else { continue }
                    let path = file.string
                    if ImageFile.looksLikeImage(path, accepting: accepted) { images.append(path) } else { skipped.append(path) }
                }
            }
        }
        return (images, skipped)
    }
}
