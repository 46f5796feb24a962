import ArgumentParser
import Foundation
import GalleryConvert
import GalleryFormat
import GalleryImaging
import Synchronization

extension ImageGallery.Convert {
    /// `convert GALLERY FOLDER --to web`: the static web gallery (Specs/web-gallery.md).
    func exportWeb() throws {
        if title != nil { Terminal.warning("--title is not used for a web gallery: it shows the gallery's own title") }
        let report = try WebExport.write(gallery: input, to: output, overwrite: force)
        if outputOptions.json {
            try Terminal.printJSON(report)
        } else {
            print(report.index)
        }
    }
}

/// Writing a web gallery for `convert --to web` and `view`: progress, warnings and exit codes.
enum WebExport {
    /// A missing input is exit 66, before anything is made.
    static func checkInput(_ gallery: String) throws {
        switch PathKind.of(gallery) {
        case .missing: throw CommandFailure(message: "\(gallery): no such file", status: ExitStatus.noInput)
        case .directory: throw CommandFailure(message: "\(gallery): is a folder, not a gallery file", status: ExitStatus.noInput)
        case .regularFile, .other:
            guard access(gallery, R_OK) == 0 else {
                throw CommandFailure(message: "\(gallery): cannot be read: \(String(cString: strerror(errno)))", status: ExitStatus.noInput)
            }
        }
    }

    static func write(gallery: String, to folder: String, overwrite: Bool) throws -> WebGalleryReport {
        try checkInput(gallery)
        var status = stat()
        if !overwrite, lstat(folder, &status) == 0 {
            throw CommandFailure(message: "\(folder): already exists (use --force to replace it)", status: ExitStatus.cannotCreate)
        }
        // libjpeg's own allocations stay under the thumbnailer's cap, as in `thumbnail`.
        setenv("JPEGMEM", "\(GalleryThumbnail.limits.maxBytes >> 20)M", 0)
        let bar = LazyProgressBar("Writing web gallery")
        let report: WebGalleryReport
        do {
            report = try WebGalleryWriter.write(galleryAt: gallery, to: folder, overwrite: overwrite) { bar.update($0, $1) }
        } catch let error as ConversionError {
            bar.finish()
            // Errors about the gallery name it; those about the output name the folder.
            throw CommandFailure(message: error.description,
                                 status: error.path == gallery ? ExitStatus.dataError : ExitStatus.cannotCreate)
        } catch let error as FileSystemError where [.notFound, .notDirectory].contains(error.kind) {
            bar.finish()
            // The folder the output goes in is missing: an output problem, not a missing input.
            throw CommandFailure(message: error.description, status: ExitStatus.cannotCreate)
        } catch {
            bar.finish()
            throw error
        }
        bar.finish()
        for warning in report.warnings { Terminal.warning("\(gallery): \(warning)") }
        return report
    }
}

/// A progress bar made on the first report, when the total is known (the writer reports
/// `(0, total)` once it has read the manifest).
final class LazyProgressBar: Sendable {
    private let label: String
    private let bar = Mutex<ProgressBar?>(nil)

    init(_ label: String) { self.label = label }

    func update(_ done: Int, _ total: Int) {
        let progress = bar.withLock { bar in
            if bar == nil { bar = ProgressBar(label, total: UInt64(total)) }
            return bar!
        }
        progress.update(UInt64(done), detail: "\(done)/\(total)")
    }

    func finish() { bar.withLock { $0?.finish() } }
}
