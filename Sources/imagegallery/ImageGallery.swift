import ArgumentParser
import GalleryFormat

@main
struct ImageGallery: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imagegallery",
        abstract: "Create, inspect and unpack .imagegallery documents.",
        discussion: """
            EXIT CODES
              0   success
              1   internal error (a bug: please report it)
              64  usage error (bad option, unknown image index or id)
              65  invalid input data (not a valid gallery, not a JPEG/PNG image)
              66  an input file is missing or unreadable
              73  an output cannot be created (exists and --force not given, …)
              74  input/output error (disk full, read failure, …)
            """,
        version: GalleryVersion.string,
        subcommands: [Create.self, Info.self, List.self, Extract.self]
    )
}
