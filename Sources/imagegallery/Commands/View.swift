import ArgumentParser
import FoundationEssentials
import GalleryConvert
import GalleryFormat
import GallerySystem
import SystemPackage

extension ImageGallery {
    struct View: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "view",
            abstract: "Look at a gallery in the web browser: write it as a static web gallery and open it.",
            discussion: """
                The web gallery (as `convert --to web` writes it) goes into a new folder under \
                $XDG_CACHE_HOME/imagegallery/view (~/.cache/imagegallery/view by default), which is opened with \
                xdg-open. It needs no server and no network. The path of its index.html is printed, so it can be \
                opened by hand when xdg-open is not installed or fails (the exit status is 0 then too). Folders \
                left there by views more than \(staleDays) days old are removed.
                """
        )

        @OptionGroup var gallery: GalleryFileArgument

        @Flag(help: "Write the web gallery and print the path of its index.html, without opening it.")
        var noOpen = false

        @OptionGroup var output: OutputOptions

        static let staleDays = 7

        struct Result: Encodable {
            var folder: String
            var index: String
            var imageCount: Int
            /// Whether xdg-open was run and succeeded.
            var opened: Bool
            var warnings: [String]
        }

        func run() throws {
            try WebExport.checkInput(gallery.file)
            let folder = try Self.freshFolder(for: gallery.file)
            let report: WebGalleryReport
            do {
                // The folder is new and empty: the writer replaces it whole.
                report = try WebExport.write(gallery: gallery.file, to: folder.string, overwrite: true, strip: [])
            } catch {
                try? GalleryFileSystem.removeTree(folder)
                throw error
            }
            var warnings = report.warnings
            var opened = false
            if !noOpen {
                switch Self.open(report.index) {
                case .success: opened = true
                case .failure(let problem): warnings.append(problem.message)
                }
            }
            if output.json {
                try Terminal.printJSON(Result(folder: report.folder, index: report.index, imageCount: report.imageCount,
                                              opened: opened, warnings: warnings))
            } else {
                print(report.index)
                if !noOpen, !opened, let last = warnings.last { Terminal.warning(last) }
            }
        }

        struct OpenFailure: Error { var message: String }

        /// Runs `xdg-open INDEX` and waits for it (it returns once the browser has the page).
        static func open(_ index: String) -> Swift.Result<Void, OpenFailure> {
            guard let program = IntegrationPlaces.which("xdg-open") else {
                return .failure(OpenFailure(message: "xdg-open is not installed (Debian: xdg-utils): open \(index) in a browser"))
            }
            let termination: ChildProcess.Termination
            do throws(FileSystemError) {
                // Keep stdout for our result (--json).
                termination = try ChildProcess(program, arguments: [index], input: .nothing, output: .standardError).wait()
            } catch {
                return .failure(OpenFailure(message: "xdg-open could not be run (\(error.reason)): open \(index) in a browser"))
            }
            guard termination == .exited(0) else {
                return .failure(OpenFailure(message: "xdg-open failed (status \(termination.status)): open \(index) in a browser"))
            }
            return .success(())
        }

        /// `view/NAME-XXXXXX` in the cache (the temporary folder when the cache cannot be made):
        /// an absolute path, so xdg-open and the printed path work from anywhere.
        static func freshFolder(for galleryPath: String) throws -> FilePath {
            var parent = UserFolders.cache().appending("view")
            if (try? GalleryFileSystem.makeFolders(parent)) == nil || !GalleryFileSystem.isWritable(parent) {
                parent = UserFolders.temporary().appending("imagegallery-view")
                try? GalleryFileSystem.makeFolders(parent)
            }
            removeStale(in: parent)
            do throws(FileSystemError) {
                return try GalleryFileSystem.makeTemporaryFolder(parent.appending(safeName(galleryPath) + "-XXXXXX"))
            } catch {
                throw CommandFailure(message: "\(parent): cannot create a folder for the web gallery: " + error.reason,
                                     status: ExitStatus.cannotCreate)
            }
        }

        /// The gallery's file name, reduced to letters, digits, `.`, `_` and `-`, for a folder name a
        /// user can recognise in a browser's address bar.
        static func safeName(_ path: String) -> String {
            let name = GalleryFileSystem.splitExtension(GalleryFileSystem.fileName(of: path)).stem
            let kept = name.unicodeScalars.prefix(40).map { scalar -> Character in
                scalar.isASCII && (scalar.properties.isAlphabetic || scalar.properties.numericType != nil || "._-".unicodeScalars.contains(scalar))
                    ? Character(scalar) : "_"
            }
            let text = String(kept.drop { $0 == "." }.reversed().drop { $0 == "." }.reversed())
            return text.isEmpty ? "gallery" : text
        }

        /// Removes earlier views older than `staleDays`; only folders this command made there.
        static func removeStale(in parent: FilePath) {
            let cutoff = (WallClock.now.seconds - Int64(staleDays) * 86_400) * 1_000_000_000
            for name in (try? GalleryFileSystem.entries(ofFolder: parent)) ?? [] {
                let path = parent.appending(name)
                guard let status = try? FileStatus.of(path, followingLinks: false),
                      status.kind == .directory, status.modifiedNanoseconds < cutoff else { continue }
                try? GalleryFileSystem.removeTree(path)
            }
        }
    }
}
