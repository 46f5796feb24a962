import ArgumentParser
import FoundationEssentials
import GalleryFormat

extension ImageGallery {
    struct Cover: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cover",
            abstract: "Choose the image that stands for the gallery, or with --unset go back to the first.",
            discussion: """
                The cover is what file managers, the document browser, the web gallery's index and a \
                comic's FrontCover show. Choosing one makes the gallery format 1.1 (or 2.1, with a \
                format 2.0 type), which every reader of the same major version reads; unsetting it \
                writes the lowest version again. The thumbnail is made again from the cover.
                """)

        @Argument(help: "The .imagegallery file.") var file: String
        @Argument(help: "The image (position, id or file name).") var image: String?
        @Flag(help: "Forget the chosen cover: the first image stands for the gallery again.") var unset = false
        @OptionGroup var edit: EditOptions

        func validate() throws {
            guard (image != nil) != unset else { throw ValidationError("give exactly one of IMAGE and --unset") }
        }

        func run() async throws {
            let document = try await DocumentCommand.openForEditing(file, options: edit.documentOptions)
            var id: UUID?
            if let image { id = try await document.image(matching: image).id }
            try await document.setCover(id)
            let report = try await DocumentCommand.finish(document, images: id.map { [$0.manifestString] })
            try DocumentCommand.end(report, json: edit.json, closed: document,
                                    summary: image.map { "made \($0) the cover" } ?? "the first image is the cover again")
        }
    }
}

/// The cover as `info` gives it: its id and position, and whether the owner chose it (else it
/// is the first image).
struct CoverReport: Encodable {
    var id: String
    var position: Int
    var filename: String?
    var chosen: Bool

    init?(_ gallery: Gallery) {
        guard let cover = gallery.coverImage, let index = gallery.images.firstIndex(where: { $0.id == cover.id }) else {
            return nil
        }
        id = cover.id.manifestString
        position = index + 1
        filename = cover.filename
        chosen = gallery.cover != nil
    }

    var text: String {
        "image \(position)" + (filename.map { " (\($0))" } ?? "") + (chosen ? ", chosen" : ", the first image")
    }
}
