import ArgumentParser
import FoundationEssentials
import GalleryConvert
import GalleryFormat
import GallerySystem

/// Gallery ⇄ unpacked folder, gallery ⇄ folder of images, gallery → CBZ.
extension ImageGallery.Convert {
    /// What `convert --json` prints.
    struct Report: Encodable {
        var input: String
        var output: String
        var from: String
        var to: String
        var title: String
        var imageCount: Int
        var totalBytes: UInt64
        /// Archive entries left out, and why.
        var skipped: [SkippedEntry]?
        /// Files written, for a folder of images.
        var files: [String]?
        /// Packing: whether manifest.json was already canonical.
        var manifestWasCanonical: Bool?
        var notes: [String]?
    }

    func finish(_ report: Report, summary: String) throws {
        if outputOptions.json {
            try Terminal.printJSON(report)
        } else {
            print(Terminal.neutralised(summary))
        }
    }

    func unpack() throws {
        let progress = LazyProgress("Unpacking")
        let report = try UnpackedGallery.unpack(galleryAt: input, to: output, overwrite: force) { done, total in
            progress.update(count: done, of: total)
        }
        progress.finish()
        try finish(Report(input: input, output: report.path, from: "gallery", to: "unpacked", title: report.title,
                          imageCount: report.imageCount, totalBytes: report.totalBytes),
                   summary: "unpacked \(input) into \(report.path): \(report.blobCount) image file\(report.blobCount == 1 ? "" : "s"), "
                       + "manifest.json, thumbnail.png")
    }

    func pack() throws {
        let progress = LazyProgress("Packing")
        let report = try UnpackedGallery.pack(folder: input, to: output, overwrite: force, durable: !noSync) { written, total in
            progress.update(written, of: total, detail: ByteCount.describe(written))
        }
        progress.finish()
        if report.manifestWasCanonical == false {
            Terminal.warning("\(input)/manifest.json was not in canonical form; the gallery holds its canonical form")
        }
        try finish(Report(input: input, output: output, from: "unpacked", to: "gallery", title: report.title,
                          imageCount: report.imageCount, totalBytes: report.totalBytes,
                          manifestWasCanonical: report.manifestWasCanonical),
                   summary: "packed \(input) into \(output): \(report.imageCount) image\(report.imageCount == 1 ? "" : "s"), "
                       + ByteCount.describe(report.totalBytes))
    }

    /// A folder of images is what `create` takes, so it is made as `create` makes it, with the
    /// folder's name as the default title.
    func importImages() throws {
        let creation = GalleryCreation(output: output, title: title ?? GalleryFileSystem.fileName(of: input),
                                       force: force, noSync: noSync, json: outputOptions.json, accepting: accepting.types,
                                       captions: captions, pixels: pixels)
        try creation.run([input], fetching: nil)
    }

    func exportImages() throws {
        let progress = LazyProgress("Writing")
        let report = try ImageFolderExport.write(galleryAt: input, to: output, overwrite: force,
                                                 strip: stripScope(for: .images)) { done, total in
            progress.update(count: done, of: total)
        }
        progress.finish()
        try finish(Report(input: input, output: report.path, from: "gallery", to: "images", title: report.title,
                          imageCount: report.files.count, totalBytes: report.totalBytes, files: report.files),
                   summary: "wrote \(report.files.count) image\(report.files.count == 1 ? "" : "s") of \(input) into \(report.path)")
    }

    func exportComic() throws {
        let progress = LazyProgress("Writing")
        let report = try ComicExport.write(galleryAt: input, to: output, overwrite: force, durable: !noSync,
                                           keepOriginals: keepOriginals, strip: stripScope(for: .comic)) { done, total in
            progress.update(count: done, of: total)
        }
        progress.finish()
        try finish(Report(input: input, output: output, from: "gallery", to: "comic", title: report.title,
                          imageCount: report.pageCount, totalBytes: report.totalBytes),
                   summary: "wrote \(output): a comic book of \(report.pageCount) page\(report.pageCount == 1 ? "" : "s") "
                       + "with ComicInfo.xml, \(ByteCount.describe(report.totalBytes))")
    }
}
