import ArgumentParser
import Foundation
import GalleryBuilder
import GalleryDocument
import GalleryFormat
import GalleryImaging

// The editing commands. Each opens the document through the document layer, which takes its
// lock (waiting for another shell's edit to finish), reads it, edits, and saves safely: two
// shells editing one file take turns and lose nothing.
extension ImageGallery {
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add images to a gallery: files, folders of images, and http(s) URLs.",
            discussion: """
                Folders contribute their JPEG and PNG files in natural name order, as with create. URLs are \
                fetched (several at once) through the cache in $XDG_CACHE_HOME/imagegallery before the gallery \
                is opened, and each URL is recorded as its image's source. A URL that fails is reported with its \
                reason and skipped: the other images are still added, in the order given, and the exit status is \
                4 (or 5 when nothing could be added).
                """)

        @Argument(help: "The .imagegallery file.") var file: String
        @Argument(help: "Image files, folders of images and URLs.") var sources: [String]
        @Option(help: ArgumentHelp("Insert at this position (1 is the first; default: the end).", valueName: "n"))
        var at: Int?
        @OptionGroup var fetching: FetchCommandOptions
        @OptionGroup var edit: EditOptions

        func run() throws {
            try reportingFailures {
                let (items, skipped) = try Fetching.items(sources)
                for path in skipped { Terminal.warning("\(path): skipped: \(ImageFile.refusal(ofFileAt: path))") }
                let index = try DocumentCommand.index(at, option: "--at")
                // Checked before anything is fetched, so that a typo costs no downloads.
                guard PathKind.of(file) == .regularFile else {
                    throw CommandFailure(message: "\(file): no such gallery file", status: ExitStatus.noInput)
                }
                let inspected = try Fetching.inspectFiles(items)
                let fetched = try Fetching.fetch(items, options: fetching, quiet: false)
                defer { fetched.removeSpool() }
                let images = Fetching.images(items, inspected: inspected, fetched: fetched)
                let failed = items.count - images.count
                if !items.isEmpty, images.isEmpty {
                    try Fetching.failNothingAdded(path: file, message: "\(file): no image could be fetched; the gallery is unchanged",
                                                  items: items, fetched: fetched, json: edit.json)
                }
                let (file, options) = (file, edit.documentOptions)
                var report = try runDocumentWork {
                    let document = try await DocumentCommand.openForEditing(file, options: options)
                    let added = try await document.insertImages(images, at: index)
                    var report = try await DocumentCommand.finish(document, images: added.map(\.id.manifestString))
                    report.items = Fetching.itemReports(items, fetched: fetched, added: added)
                    return report
                }
                if !items.contains(where: { if case .url = $0 { true } else { false } }) { report.items = nil }
                try DocumentCommand.print(report, json: edit.json,
                                          summary: "added \(images.count) image\(images.count == 1 ? "" : "s") to \(file): "
                                            + "\(report.imageCount) in all"
                                            + (failed == 0 ? "" : "; \(failed) could not be fetched"))
                let status = Fetching.status(failed: failed, of: items.count)
                if status != 0 { throw ExitCode(status) }
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove images from a gallery.",
            discussion: "An image is named by its position (1 is the first), its id or a unique start of it, or its file name.")

        @Argument(help: "The .imagegallery file.") var file: String
        @Argument(help: "The images to remove.") var images: [String]
        @OptionGroup var edit: EditOptions

        func run() throws {
            try reportingFailures {
                let (file, images, options) = (file, images, edit.documentOptions)
                let report = try runDocumentWork {
                    let document = try await DocumentCommand.openForEditing(file, options: options)
                    var ids: [UUID] = []
                    for reference in images { ids.append(try await document.image(matching: reference).id) }
                    try await document.removeImages(ids)
                    return try await DocumentCommand.finish(document, images: ids.map(\.manifestString))
                }
                try DocumentCommand.print(report, json: edit.json,
                                          summary: "removed \(images.count) from \(file): \(report.imageCount) left")
            }
        }
    }

    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "move", abstract: "Move an image to another position.")

        @Argument(help: "The .imagegallery file.") var file: String
        @Argument(help: "The image (position, id or file name).") var image: String
        @Option(help: ArgumentHelp("Its new position (1 is the first).", valueName: "n")) var to: Int
        @OptionGroup var edit: EditOptions

        func run() throws {
            try reportingFailures {
                let index = try DocumentCommand.index(to, option: "--to")!
                let (file, image, options) = (file, image, edit.documentOptions)
                let report = try runDocumentWork {
                    let document = try await DocumentCommand.openForEditing(file, options: options)
                    let id = try await document.image(matching: image).id
                    try await document.moveImage(id, to: index)
                    return try await DocumentCommand.finish(document, images: [id.manifestString])
                }
                try DocumentCommand.print(report, json: edit.json, summary: "moved \(image) to position \(to) in \(file)")
            }
        }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rename", abstract: "Change a gallery's title.")

        @Argument(help: "The .imagegallery file.") var file: String
        @Argument(help: "The new title.") var title: String
        @OptionGroup var edit: EditOptions

        func run() throws {
            try reportingFailures {
                let (file, title, options) = (file, title, edit.documentOptions)
                let report = try runDocumentWork {
                    let document = try await DocumentCommand.openForEditing(file, options: options)
                    try await document.setTitle(title)
                    return try await DocumentCommand.finish(document)
                }
                try DocumentCommand.print(report, json: edit.json, summary: "renamed \(file) to \"\(title)\"")
            }
        }
    }

    struct Caption: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "caption", abstract: "Set (or, with empty text, remove) an image's caption.")

        @Argument(help: "The .imagegallery file.") var file: String
        @Argument(help: "The image (position, id or file name).") var image: String
        @Argument(help: "The caption.") var text: String
        @OptionGroup var edit: EditOptions

        func run() throws {
            try reportingFailures {
                let (file, image, text, options) = (file, image, text, edit.documentOptions)
                let report = try runDocumentWork {
                    let document = try await DocumentCommand.openForEditing(file, options: options)
                    let id = try await document.image(matching: image).id
                    try await document.setCaption(text, of: id)
                    return try await DocumentCommand.finish(document, images: [id.manifestString])
                }
                try DocumentCommand.print(report, json: edit.json,
                                          summary: text.isEmpty ? "removed the caption of \(image)" : "captioned \(image)")
            }
        }
    }

    struct Transfer: ParsableCommand {
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

        func run() throws {
            try reportingFailures {
                let index = try DocumentCommand.index(at, option: "--at")
                let (source, destination, images, copy, options) = (source, destination, images, copy, edit.documentOptions)
                let resolved = try [source, destination].map { try GalleryFileSystem.resolvedPath($0) }
                guard resolved[0] != resolved[1] else {
                    throw ValidationError("the source and the destination are the same file; use move")
                }
                let reports = try runDocumentWork {
                    // Locks are taken in path order, so two opposite transfers take turns.
                    let sourceFirst = resolved[0] < resolved[1]
                    let first = try await DocumentCommand.openForEditing(sourceFirst ? source : destination, options: options)
                    let second = try await DocumentCommand.openForEditing(sourceFirst ? destination : source, options: options)
                    let (from, to) = sourceFirst ? (first, second) : (second, first)
                    var ids: [UUID] = []
                    for reference in images { ids.append(try await from.image(matching: reference).id) }
                    let placed = try await from.transferImages(ids, to: to, at: index, copy: copy)
                    // The destination first: if its save fails, the source still has the images.
                    let received = try await DocumentCommand.finish(to, images: placed.map(\.id.manifestString))
                    let left = try await DocumentCommand.finish(from, images: ids.map(\.manifestString))
                    return [left, received]
                }
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
}
