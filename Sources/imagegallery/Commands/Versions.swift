import ArgumentParser
import FoundationEssentials
import GalleryDocument
import GalleryFormat

extension ImageGallery {
    struct Versions: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "versions",
            abstract: "List a gallery's other versions: conflicts kept by saves, and sync clients' conflict copies.",
            discussion: """
                Versions live under $XDG_STATE_HOME/imagegallery/versions (default ~/.local/state/…). A save \
                that finds the file changed by someone else keeps our edits there as an unresolved version; \
                Syncthing, Nextcloud/ownCloud and Dropbox conflict copies beside the file are listed when \
                their document id matches. Settle them with `imagegallery resolve`.
                """)

        @Argument(help: "The .imagegallery file.") var file: String
        @Flag(help: ArgumentHelp("Delete every other version this machine keeps of the gallery, and its sync clients' conflict copies.",
                                 discussion: "For a gallery stripped of its location: the versions kept before still hold it."))
        var purge = false
        @OptionGroup var output: OutputOptions

        struct Entry: Encodable {
            var id: String
            var origin: String
            var resolved: Bool
            var revision: String
            var parents: [String]
            var time: String
            var host: String
            var title: String
            var imageCount: Int
            var file: String
            var missingImages: [String]
        }

        func run() async throws {
            if purge {
                let document = try await DocumentCommand.openForEditing(file, options: DocumentOptions())
                let count = try await document.otherVersions().count
                try await document.purgeVersions()
                _ = try await document.close()
                if output.json {
                    try Terminal.printJSON(["purged": count])
                } else {
                    print("\(file): deleted \(count) other version\(count == 1 ? "" : "s")")
                }
                return
            }
            var options = DocumentOptions()
            options.readsOnly = true
            let document = GalleryDocument(path: file, options: options)
            try await document.open()
            let (current, others) = (try await document.currentVersion(), try await document.otherVersions())
            let entries = ([current] + others).map(Self.entry)
            if output.json {
                try Terminal.printJSON(entries)
                ImageGallery.succeed(holding: document)
            }
            for entry in entries {
                let status = entry.origin == "current" ? "current" : entry.resolved ? "resolved" : "UNRESOLVED"
                print("\(entry.id)  \(status)  \(entry.origin)  \(entry.time)  \(entry.host)  "
                      + "\(entry.imageCount) image\(entry.imageCount == 1 ? "" : "s")  \"\(Terminal.neutralised(entry.title))\"")
                if !entry.missingImages.isEmpty {
                    print("    \(entry.missingImages.count) image(s) could not be kept: the file was overwritten in place")
                }
            }
            let unresolved = others.filter { !$0.isResolved }.count
            if unresolved > 0 {
                print("\(unresolved) unresolved: `imagegallery resolve --merge -- \(file)`, or --keep current|VERSION")
            }
        }

        static func entry(_ version: DocumentVersion) -> Entry {
            Entry(id: version.id.manifestString, origin: version.origin.rawValue, resolved: version.isResolved,
                  revision: version.revision.manifestString, parents: version.parentRevisions.map(\.manifestString),
                  time: Timestamp(seconds: Int64(version.time.timeIntervalSince1970)).rfc3339, host: version.host,
                  title: version.title, imageCount: version.imageCount, file: version.file,
                  missingImages: version.missingImages.map(\.manifestString))
        }
    }

    struct Resolve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "resolve",
            abstract: "Settle a gallery's unresolved versions: keep one, or merge them all.",
            discussion: """
                --keep current keeps the file as it is; --keep VERSION (an id, or a unique start of one, from \
                `imagegallery versions`) makes that version the file. --merge merges every unresolved version \
                into the file, three-way by image id: images added on either side are all kept. Either way the \
                versions are marked resolved (they stay in the store until removed with --remove-others). \
                Exit 3 when the merge had conflicts; the current side was kept for each.
                """)

        @Argument(help: "The .imagegallery file.") var file: String
        @Option(help: ArgumentHelp("current, or the version to keep.", valueName: "version")) var keep: String?
        @Flag(help: "Merge the unresolved versions into the file.") var merge = false
        @Flag(help: "Afterwards delete the other versions (and sync clients' conflict copies).") var removeOthers = false
        @OptionGroup var edit: EditOptions

        func validate() throws {
            guard (keep != nil) != merge else { throw ValidationError("give exactly one of --keep VERSION and --merge") }
        }

        struct Report: Encodable {
            var path: String
            var resolved: [String]
            var conflicts: [String]
            /// What the merge settled and says: a cover whose image went.
            var notes: [String]?
            var revision: String
        }

        func run() async throws {
            let options = edit.documentOptions
            let document = try await DocumentCommand.openForEditing(file, options: options)
            let unresolved = try await document.unresolvedVersions()
            var conflicts: [String] = []
            var notes: [String] = []
            if let keep, keep != "current" {
                let chosen = try Self.version(keep, among: try await document.otherVersions(), path: file)
                try await document.replace(with: chosen)
                for version in unresolved { try await document.markResolved(version) }
            } else if keep == "current" {
                for version in unresolved { try await document.markResolved(version) }
            } else {
                let found = try await document.mergeUnresolvedVersions()
                conflicts = found.filter { !$0.isNotice }.map(\.description)
                notes = found.filter(\.isNotice).map(\.description)
            }
            if removeOthers { try await document.removeOtherVersions() }
            _ = try await document.save()
            let revision = try await document.gallery.revision.manifestString
            _ = try await document.close()
            let report = Report(path: file, resolved: unresolved.map(\.id.manifestString), conflicts: conflicts,
                                notes: notes.isEmpty ? nil : notes, revision: revision)
            if edit.json {
                try Terminal.printJSON(report)
            } else {
                for conflict in report.conflicts + notes { Terminal.warning("\(file): \(conflict)") }
                print("resolved \(report.resolved.count) version\(report.resolved.count == 1 ? "" : "s") of \(file)")
            }
            if !report.conflicts.isEmpty { throw ExitCode(ExitStatus.conflict) }
        }

        static func version(_ reference: String, among versions: [DocumentVersion], path: String) throws -> DocumentVersion {
            let lowered = reference.lowercased()
            let matches = versions.filter { $0.id.manifestString.hasPrefix(lowered) }
            guard lowered.count >= 4, matches.count == 1 else {
                throw DocumentError(.unknownVersion, path: path, matches.isEmpty
                    ? "no version is \"\(reference)\" (see `imagegallery versions -- \(path)`)"
                    : "\"\(reference)\" names \(matches.count) versions; give more of the id")
            }
            return matches[0]
        }
    }
}
