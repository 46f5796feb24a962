import ArgumentParser
import GalleryFormat
import GalleryMetadata

extension ImageGallery {
    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "info",
            abstract: "Describe a gallery: title, ids, image count, sizes and format version.",
            discussion: "Reads only the archive's directory and manifest, so it is fast on any size of gallery."
        )

        @OptionGroup var gallery: GalleryFileArgument
        @OptionGroup var output: OutputOptions
        @OptionGroup var privacy: PrivacyOption

        struct Report: Encodable {
            var path: String
            var title: String
            var id: String
            var revision: String
            var formatVersion: String
            var imageCount: Int
            var totalBytes: UInt64
            var created: String
            var modified: String
            var generator: String?
            /// The image that stands for the gallery, and whether the owner chose it.
            var cover: CoverReport?
            var warnings: [String]
            var privacy: PrivacyOption.Report?
        }

        func run() throws {
            let path = gallery.file
            let reader = try GalleryReader(path: path)
            let gallery = reader.gallery
            let warnings = reader.diagnostics.filter { $0.severity >= .warning }
            let report = Report(
                path: path, title: gallery.title, id: gallery.id.manifestString,
                revision: gallery.revision.manifestString, formatVersion: gallery.formatVersion.description,
                imageCount: gallery.images.count, totalBytes: gallery.totalImageBytes,
                created: gallery.created.rfc3339, modified: gallery.modified.rfc3339, generator: gallery.generator,
                cover: CoverReport(gallery),
                warnings: warnings.map(\.description),
                privacy: privacy.enabled ? PrivacyOption.Report(PrivacyOption.survey(reader)) : nil
            )
            if output.json {
                try Terminal.printJSON(report)
                ImageGallery.succeed(holding: reader)
            }
            for warning in warnings { Terminal.warning(warning.description) }
            var lines = [
                ("Title", report.title),
                ("Document", report.id),
                ("Revision", report.revision),
                ("Format", "imagegallery \(report.formatVersion)"),
                ("Images", String(report.imageCount)),
                ("Image bytes", ByteCount.describe(report.totalBytes)),
                ("Created", report.created),
                ("Modified", report.modified),
            ]
            if let generator = report.generator { lines.append(("Generator", generator)) }
            if let cover = report.cover { lines.append(("Cover", cover.text)) }
            for (label, value) in lines {
                print((label + ":").padded(13) + Terminal.neutralised(value))
            }
            if let survey = report.privacy { survey.printText() }
            ImageGallery.succeed(holding: reader)
        }
    }
}
