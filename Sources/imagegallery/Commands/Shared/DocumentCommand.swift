import ArgumentParser
import FoundationEssentials
import GalleryDocument
import GalleryFormat
import GallerySystem
import SystemPackage

/// Options every editing command shares.
struct EditOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Seconds to wait for another editor of this computer to finish.", valueName: "seconds"))
    var wait: Double = 30

    @Flag(help: "Save a file that has several hard links by replacing this name only (the others keep the old content).")
    var breakHardLinks = false

    @Flag(help: "Print one JSON document for scripts instead of text.")
    var json = false

    func validate() throws {
        guard wait >= 0, wait <= 86_400 else { throw ValidationError("--wait must be between 0 and 86400 seconds") }
    }

    var documentOptions: DocumentOptions {
        var options = DocumentOptions()
        options.autosaves = false
        options.lockWait = .milliseconds(Int64(wait * 1000))
        options.replacesHardLinkedFile = breakHardLinks
        return options
    }
}

/// What an editing command reports.
struct EditReport: Encodable {
    var path: String
    var revision: String?
    var imageCount: Int
    /// "saved", "unchanged", or "kept-as-version" (someone else had changed the file).
    var outcome: String
    var version: String?
    var images: [String]?
    /// What became of each item asked for, when some were URLs.
    var items: [ItemReport]?
    /// The format version the file has now: "2.0" once it holds an image of a type 2.0 added.
    var formatVersion: String?
    /// True when this edit made a 1.x gallery 2.0 (`add` of a WebP, say), which readers of format 1 refuse.
    var upgraded: Bool?
}

enum DocumentCommand {
    /// Opens `path` for editing, waiting for the lock; a document someone else keeps is an error
    /// that names them.
    static func openForEditing(_ path: String, options: DocumentOptions) async throws -> GalleryDocument {
        guard PathKind.of(FilePath(path)) == .regularFile else {
            throw CommandFailure(message: "\(path): no such gallery file", status: ExitStatus.noInput)
        }
        let document = GalleryDocument(path: path, options: options)
        let opened = try await document.open()
        if opened.state == .editingDisabled {
            let reason = opened.readOnlyReason ?? "it cannot be edited"
            // Held by someone: try again later (75). A folder that cannot be written: 73.
            throw CommandFailure(message: "\(path): cannot edit: \(reason)",
                                 status: opened.lockHolder != nil ? ExitStatus.locked : ExitStatus.cannotCreate)
        }
        if !opened.unresolvedVersions.isEmpty {
            Terminal.warning("\(path): \(opened.unresolvedVersions.count) unresolved version(s); "
                             + "see `imagegallery versions -- \(path)`")
        }
        return document
    }

    /// Saves and closes, turning the outcome into the report and exit status.
    static func finish(_ document: GalleryDocument, images: [String]? = nil) async throws -> EditReport {
        let result = try await document.save()
        // What is on disk now: ours, or after a conflict the other writer's, which was read.
        let gallery = try await document.gallery
        _ = try await document.close()
        var report = report(of: result, document: document, gallery: gallery, images: images)
        report.formatVersion = gallery.writtenFormatVersion.description
        return report
    }

    private static func report(of result: DocumentCloseResult, document: GalleryDocument, gallery: Gallery, images: [String]?)
        -> EditReport {
        switch result {
        case .unchanged:
            return EditReport(path: document.path, revision: gallery.revision.manifestString, imageCount: gallery.images.count,
                              outcome: "unchanged", images: images)
        case .saved(let revision):
            return EditReport(path: document.path, revision: revision.manifestString, imageCount: gallery.images.count,
                              outcome: "saved", images: images)
        case .keptAsVersion(let version):
            return EditReport(path: document.path, revision: gallery.revision.manifestString, imageCount: gallery.images.count,
                              outcome: "kept-as-version", version: version.manifestString, images: images)
        }
    }

    /// Prints the report; a version-only outcome is a conflict (exit 3).
    static func print(_ report: EditReport, json: Bool, summary: String) throws {
        if json {
            try Terminal.printJSON(report)
        } else if report.outcome == "kept-as-version" {
            Terminal.warning("\(report.path): someone else changed the file; your edit was kept as version "
                             + "\(report.version ?? "?") (see `imagegallery versions`)")
        } else {
            Swift.print(Terminal.neutralised(summary))
        }
        if report.outcome == "kept-as-version" { throw ExitCode(ExitStatus.conflict) }
    }

    /// Prints the report as `print` does, then ends the command with the closed document still
    /// alive (`ImageGallery.succeed(holding:)`): a conflict still ends with its own code.
    static func end(_ report: EditReport, json: Bool, closed document: GalleryDocument, summary: String) throws -> Never {
        try print(report, json: json, summary: summary)
        ImageGallery.succeed(holding: document)
    }

    /// A 1-based position from the command line as an index, where `count + 1` is the end.
    static func index(_ position: Int?, option: String) throws -> Int? {
        guard let position else { return nil }
        guard position >= 1 else { throw ValidationError("\(option) must be 1 or more") }
        return position - 1
    }
}
