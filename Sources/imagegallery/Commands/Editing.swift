import ArgumentParser
import FoundationEssentials
import GalleryBuilder
import GalleryDocument
import GalleryFormat
import GalleryImaging
import GallerySystem
import SystemPackage

// The editing commands. Each opens the document through the document layer, which takes its
// lock (waiting for another shell's edit to finish), reads it, edits, and saves safely: two
// shells editing one file take turns and lose nothing.
extension ImageGallery {
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove images from a gallery.",
            discussion: "An image is named by its position (1 is the first), its id or a unique start of it, or its file name.")

        @Argument(help: "The .imagegallery file.") var file: String
        @Argument(help: "The images to remove.") var images: [String]
        @OptionGroup var edit: EditOptions

        func run() async throws {
            let options = edit.documentOptions
            let document = try await DocumentCommand.openForEditing(file, options: options)
            var ids: [UUID] = []
            for reference in images { ids.append(try await document.image(matching: reference).id) }
            try await document.removeImages(ids)
            let report = try await DocumentCommand.finish(document, images: ids.map(\.manifestString))
            try DocumentCommand.end(report, json: edit.json, closed: document,
                                    summary: "removed \(images.count) from \(file): \(report.imageCount) left")
        }
    }

    struct Move: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "move", abstract: "Move an image to another position.")

        @Argument(help: "The .imagegallery file.") var file: String
        @Argument(help: "The image (position, id or file name).") var image: String
        @Option(help: ArgumentHelp("Its new position (1 is the first).", valueName: "n")) var to: Int
        @OptionGroup var edit: EditOptions

        func run() async throws {
            let index = try DocumentCommand.index(to, option: "--to")!
            let options = edit.documentOptions
            let document = try await DocumentCommand.openForEditing(file, options: options)
            let id = try await document.image(matching: image).id
            try await document.moveImage(id, to: index)
            let report = try await DocumentCommand.finish(document, images: [id.manifestString])
            try DocumentCommand.end(report, json: edit.json, closed: document, summary: "moved \(image) to position \(to) in \(file)")
        }
    }

    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rename", abstract: "Change a gallery's title.")

        @Argument(help: "The .imagegallery file.") var file: String
        @Argument(help: "The new title.") var title: String
        @OptionGroup var edit: EditOptions

        func run() async throws {
            let options = edit.documentOptions
            let document = try await DocumentCommand.openForEditing(file, options: options)
            try await document.setTitle(title)
            let report = try await DocumentCommand.finish(document)
            try DocumentCommand.end(report, json: edit.json, closed: document, summary: "renamed \(file) to \"\(title)\"")
        }
    }

    struct Caption: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "caption", abstract: "Set (or, with empty text, remove) an image's caption.")

        @Argument(help: "The .imagegallery file.") var file: String
        @Argument(help: "The image (position, id or file name).") var image: String
        @Argument(help: "The caption.") var text: String
        @OptionGroup var edit: EditOptions

        func run() async throws {
            let options = edit.documentOptions
            let document = try await DocumentCommand.openForEditing(file, options: options)
            let id = try await document.image(matching: image).id
            try await document.setCaption(text, of: id)
            let report = try await DocumentCommand.finish(document, images: [id.manifestString])
            try DocumentCommand.end(report, json: edit.json, closed: document,
                                    summary: text.isEmpty ? "removed the caption of \(image)" : "captioned \(image)")
        }
    }

    struct Transfer: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "transfer",
            abstract: "Move (or copy) images from one gallery to another.",
            discussion: "Both galleries are locked, in a fixed order, so that opposite transfers cannot wait on each other.")

        @Argument(help: "The gallery to take the images from.") var source: String
        @Argument(help: "The gallery to put them in.") var destination: String
        @Argument(help: "The images (positions, ids or file names).") var images: [String]
        @Option(help: ArgumentHelp("Insert at this position in the destination (default: the end).", valueName: "n"))
        var at: Int?
        @Flag(help: "Copy instead of moving: the source keeps the images.") var copy = false
        @OptionGroup var edit: EditOptions

        func run() async throws {
            let index = try DocumentCommand.index(at, option: "--at")
            let options = edit.documentOptions
            let resolved = try [source, destination].map { try GalleryFileSystem.resolvedPath(FilePath($0)) }
            // The same file is the same bytes: "café" composed and decomposed are two files.
            guard resolved[0] != resolved[1] else {
                throw ValidationError("the source and the destination are the same file; use move")
            }
            // Locks are taken in path order, so two opposite transfers take turns; by bytes, the
            // order that agrees with the test above (two names that differ are never tied).
            let sourceFirst = resolved[0].string.utf8.lexicographicallyPrecedes(resolved[1].string.utf8)
            let first = try await DocumentCommand.openForEditing(sourceFirst ? source : destination, options: options)
            let second = try await DocumentCommand.openForEditing(sourceFirst ? destination : source, options: options)
            let (from, to) = sourceFirst ? (first, second) : (second, first)
            var ids: [UUID] = []
            for reference in images { ids.append(try await from.image(matching: reference).id) }
            let placed = try await from.transferImages(ids, to: to, at: index, copy: copy)
            // The destination first: if its save fails, the source still has the images.
            let received = try await DocumentCommand.finish(to, images: placed.map(\.id.manifestString))
            let left = try await DocumentCommand.finish(from, images: ids.map(\.manifestString))
            let reports = [left, received]
            if edit.json {
                try Terminal.printJSON(reports)
            } else {
                print("\(copy ? "copied" : "moved") \(images.count) image\(images.count == 1 ? "" : "s") from \(source) "
                      + "to \(destination)")
            }
            if reports.contains(where: { $0.outcome == "kept-as-version" }) { throw ExitCode(ExitStatus.conflict) }
        }
    }
}
