import ArgumentParser
import FoundationEssentials
import GalleryConvert
import GalleryFormat
import GalleryImaging
import GalleryMetadata
import GallerySystem
import SystemPackage

extension ImageGallery.Convert {
    /// `convert GALLERY FOLDER --to web`: the static web gallery (Specs/web-gallery.md).
    func exportWeb() throws {
        if title != nil { Terminal.warning("--title is not used for a web gallery: it shows the gallery's own title") }
        let scope = stripScope(for: .web)
        let report = try WebExport.write(gallery: input, to: output, overwrite: force, strip: scope, baseURL: try baseAddress())
        if outputOptions.json {
            try Terminal.printJSON(report)
        } else {
            if strip == nil {
                // Said every time the default applies, so that nobody is surprised either way.
                Terminal.note("removed location from \(report.strippedCount) of \(report.imageCount) images (the default for a web "
                              + "gallery; --strip none publishes the originals)")
            } else if !scope.isEmpty {
                Terminal.note("removed \(scope.description) from \(report.strippedCount) of \(report.imageCount) images")
            }
            print(report.index)
        }
    }
}

extension ImageGallery.Convert {
    /// `--base-url`, checked: an absolute http(s) address, for the web gallery only.
    func baseAddress() throws -> WebGalleryBaseURL? {
        guard let baseURL else { return nil }
        do {
            return try WebGalleryBaseURL(baseURL)
        } catch {
            throw ValidationError("--base-url \(baseURL.debugDescription): \(error)")
        }
    }
}

/// Writing a web gallery for `convert --to web` and `view`: progress, warnings and exit codes.
enum WebExport {
    /// A missing input is exit 66, before anything is made.
    static func checkInput(_ gallery: String) throws {
        let file = FilePath(gallery)
        switch PathKind.of(file) {
        case .missing: throw CommandFailure(message: "\(gallery): no such file", status: ExitStatus.noInput)
        case .directory: throw CommandFailure(message: "\(gallery): is a folder, not a gallery file", status: ExitStatus.noInput)
        case .regularFile, .other:
            do throws(FileSystemError) {
                try GalleryFileSystem.checkReadable(file)
            } catch {
                throw CommandFailure(message: "\(gallery): cannot be read: \(error.reason)", status: ExitStatus.noInput)
            }
        }
    }

    static func write(gallery: String, to folder: String, overwrite: Bool, strip: MetadataScope,
                      baseURL: WebGalleryBaseURL? = nil) throws -> WebGalleryReport {
        try checkInput(gallery)
        // The writer would fail making its staging folder, which is a write error (74); a
        // folder to put the output in that does not exist is an output that cannot be made.
        let path = GalleryFileSystem.withoutTrailingSlashes(folder)
        let parent = GalleryFileSystem.directory(of: path)
        switch parent.isEmpty ? .directory : PathKind.of(FilePath(parent)) {
        case .directory: break
        case .missing: throw CommandFailure(message: "\(folder): cannot be created: \(parent) does not exist", status: ExitStatus.cannotCreate)
        default: throw CommandFailure(message: "\(folder): cannot be created: \(parent) is not a folder", status: ExitStatus.cannotCreate)
        }
        // libjpeg's own allocations stay under the thumbnailer's cap, as in `thumbnail`.
        CurrentProcess.setEnvironment("JPEGMEM", "\(GalleryThumbnail.limits.maxBytes >> 20)M", replacing: false)
        let progress = LazyProgress("Writing web gallery")
        let report: WebGalleryReport
        do {
            // Cleared before any message: warnings below, or the failure `main` prints.
            defer { progress.finish() }
            report = try WebGalleryWriter.write(galleryAt: gallery, to: folder, overwrite: overwrite, strip: strip,
                                                 baseURL: baseURL) {
                progress.update(count: $0, of: $1)
            }
        }
        for warning in report.warnings { Terminal.warning("\(gallery): \(warning)") }
        return report
    }
}
