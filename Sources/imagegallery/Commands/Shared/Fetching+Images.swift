import GalleryBuilder
import GalleryPrograms
import GalleryFormat
import GalleryImageHeaders
import GalleryImaging

extension Fetching {
    /// Reads and hashes the items' files on all cores, with a progress bar; before anything is
    /// fetched, so that a file that is not an image costs no downloads.
    static func inspectFiles(_ items: [SourceItem], accepting accepted: Set<MediaType> = Set(MediaType.allCases)) throws
        -> [SourceImage] {
        let paths = items.compactMap { item -> String? in if case .file(let path) = item { path } else { nil } }
        let reading = ProgressBar("Reading", total: UInt64(paths.count))
        defer { reading.finish() }
        return try SourceImage.inspect(files: paths, accepting: accepted) { done in
            reading.update(UInt64(done), detail: "\(done)/\(paths.count)")
        }
    }

    /// The items that gave an image, in command-line order: the files inspected, and each URL
    /// fetched as the image spooled for it.
    static func images(_ items: [SourceItem], inspected: [SourceImage], fetched: FetchRun) -> [SourceImage] {
        var files = inspected.makeIterator()
        return items.compactMap { item in
            switch item {
            case .file:
                return files.next()!
            case .url(let url):
                guard case .success(let image) = fetched[url] else { return nil }
                return image.sourceImage(url: url)
            }
        }
    }

    /// What became of each item, with the id of the gallery image it gave: `added` are the
    /// images the items gave, in their order.
    static func itemReports(_ items: [SourceItem], fetched: FetchRun, added: [GalleryImage]) -> [ItemReport] {
        var galleryImages = added.makeIterator()
        return items.map { item in
            switch item {
            case .file(let path):
                return ItemReport(source: path, status: "added", image: galleryImages.next()?.id.manifestString)
            case .url(let url):
                let result = fetched[url]
                if case .success = result {
                    return report(url, result, image: galleryImages.next()?.id.manifestString)
                }
                return report(url, result, image: nil)
            }
        }
    }
}
