import ArgumentParser
import Dispatch
import FoundationEssentials
import GalleryFormat
import GalleryImaging
import GalleryMetadata
import GallerySystem
import SystemPackage
import Synchronization

extension ImageGallery {
    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "validate",
            abstract: "Check galleries against the format spec, for CI.",
            discussion: """
                Every problem has a stable id (see Specs/diagnostics.md), a severity and a place. Folders are \
                searched recursively for *.imagegallery files; files are checked in parallel and reported in \
                the order of the command line (folders in name order).

                EXIT CODES (validate)
                  0  every file is valid (warnings allowed, unless --strict)
                  1  a file has errors (or warnings, with --strict)
                  2  usage or input/output problem (a path that does not exist, an unwritable --output)
                """
        )

        enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
            case text, json, sarif, junit, github
        }

        @Argument(help: "Gallery files and folders to check.")
        var paths: [String]

        @Option(help: "Report format: text, json, sarif (SARIF 2.1.0), junit (JUnit XML) or github (GitHub Actions annotations).")
        var format: ReportFormat = .text

        @Option(help: "Files checked at once (default: the number of cores).")
        var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

        @Flag(help: "Fail on warnings too.")
        var strict = false

        @Flag(help: "Decode the pixels of every image and of the thumbnail (slower; finds truncated and corrupt data).")
        var deep = false

        @Option(help: ArgumentHelp("With --deep: images with more pixels (width × height) are not decoded (IG-BLB-009).",
                                   valueName: "count"))
        var maxPixels = DecodeLimits().maxWorkPixels

        // 256: a 12-megapixel HEIC or AVIF is decoded whole (about 170 MiB); JPEG decodes take
        // what their 1/8 scale needs, PNG rows a few MiB.
        @Option(help: ArgumentHelp("With --deep: memory all decodes together may use, in MiB.", valueName: "MiB"))
        var decodeMemory = 256

        @Option(help: "Write the report to this file instead of standard output.")
        var output: String?

        @Flag(help: ArgumentHelp("Read every image's metadata and report each that carries a location (IG-PRV-001), identity "
                                 + "fields (IG-PRV-002) or metadata that cannot be read (IG-PRV-003), as warnings.",
                                 discussion: "For a gallery about to be published: `imagegallery strip` removes them."))
        var privacy = false

        @Flag(help: "With --privacy: report those findings as errors, so that the file is invalid (exit 1).")
        var privacyErrors = false

        func validate() throws {
            guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
            guard maxPixels >= 1 else { throw ValidationError("--max-pixels must be at least 1") }
            guard (8 ... 65536).contains(decodeMemory) else { throw ValidationError("--decode-memory must be 8 to 65536 MiB") }
            if paths.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input (-) can be read only once") }
        }

        func run() throws {
            let files: [String]
            do {
                files = try Self.expand(paths)
            } catch let failure as CommandFailure {
                Terminal.error(failure.message)
                throw ExitCode(ExitStatus.checkNotMade)
            }
            var options = ValidationOptions()
            if deep {
                // A second bound inside libjpeg itself, should an estimate ever fall short.
                CurrentProcess.setEnvironment("JPEGMEM", "\(decodeMemory)M", replacing: false)
                options.pixelChecker = ImagePixelChecker(limits: DecodeLimits(
                    maxPixels: min(DecodeLimits().maxPixels, maxPixels), maxWorkPixels: maxPixels,
                    maxBytes: decodeMemory << 20))
            }
            // Several files at once keep the cores busy; one file at a time uses them inside it.
            options.readsEntriesInParallel = jobs == 1 || files.count == 1
            let privacyCheck: PrivacyCheck? = privacy || privacyErrors ? PrivacyCheck(asErrors: privacyErrors) : nil
            let reports = Self.check(files, jobs: jobs, options: options, privacy: privacyCheck)
            let text = switch format {
            case .text: Terminal.neutralised(textReport(reports), keepingLines: true)
            case .json: try jsonReport(reports)
            case .sarif: try sarifReport(reports)
            case .junit: junitReport(reports)
            case .github: githubReport(reports)
            }
            if let output {
                do {
                    try GalleryFileSystem.writeWhole(Array(text.utf8), to: FilePath(output))
                } catch {
                    Terminal.error("\(output): cannot write the report: \(FileSystemError.reason(of: error))")
                    throw ExitCode(ExitStatus.checkNotMade)
                }
            } else {
                StandardStream.output.write(text)
            }
            for report in reports { if let failure = report.readFailure { Terminal.error(failure) } }
            if reports.contains(where: { $0.readFailure != nil }) { throw ExitCode(ExitStatus.checkNotMade) }
            let failed = reports.contains { !passes($0) }
            if failed { throw ExitCode(ExitStatus.invalid) }
        }

        /// Files as given; folders searched for *.imagegallery, in byte order of their paths.
        static func expand(_ paths: [String]) throws -> [String] {
            var files: [String] = []
            for path in paths {
                switch PathKind.of(FilePath(path)) {
                case .missing where path == "-":
                    files.append(path)
                case .missing:
                    throw CommandFailure(message: "\(path): no such file or folder", status: ExitStatus.checkNotMade)
                case .regularFile, .other:
                    files.append(path)
                case .directory:
                    let base = FilePath(path)
                    let everything: [FilePath]
                    do throws(FileSystemError) {
                        everything = try GalleryFileSystem.descendants(ofFolder: base)
                    } catch {
                        throw CommandFailure(message: "\(path): cannot list the folder: \(error.reason)", status: ExitStatus.checkNotMade)
                    }
                    let found = everything.filter { $0.string.hasSuffix(".imagegallery") }.map { base.pushing($0).string }
                    files += found.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
                }
            }
            return files
        }

        /// Validates on `jobs` threads; the reports come back in the order of `files`.
        static func check(_ files: [String], jobs: Int, options: ValidationOptions, privacy: PrivacyCheck? = nil) -> [ValidationReport] {
            let next = Atomic<Int>(0)
            let results = Mutex<[ValidationReport?]>(Array(repeating: nil, count: files.count))
            let progress = ProgressBar("Validating", total: UInt64(files.count), enabled: Terminal.errorIsTerminal && files.count > 1)
            let done = Atomic<Int>(0)
            DispatchQueue.concurrentPerform(iterations: min(jobs, max(files.count, 1))) { _ in
                while true {
                    let index = next.add(1, ordering: .relaxed).oldValue
                    guard index < files.count else { return }
                    var report = files[index] == "-" ? Self.validateStandardInput(options: options, privacy: privacy)
                        : GalleryValidator.validate(path: files[index], options: options)
                    if files[index] != "-", let privacy { privacy.check(&report) { try ZipArchive(path: files[index]) } }
                    results.withLock { $0[index] = report }
                    progress.update(UInt64(done.add(1, ordering: .relaxed).newValue))
                }
            }
            progress.finish()
            return results.withLock { $0.map { $0! } }
        }

        /// Standard input, spooled to a nameless temporary file so it can be read by position.
        static func validateStandardInput(options: ValidationOptions, privacy: PrivacyCheck?) -> ValidationReport {
            do {
                let file = try GalleryFile.spoolStandardInput(limit: GalleryLimits.default.maxTotalUncompressedBytes)
                var report = GalleryValidator.validate(file: file, options: options)
                privacy?.check(&report) { try ZipArchive(file: file) }
                return report
            } catch let error as GalleryError {
                return ValidationReport(path: "-", diagnostics: [error])
            } catch {
                return ValidationReport(path: "-", diagnostics: [GalleryError(.notZip, "standard input cannot be read",
                                                                              location: Location(file: "-"), underlying: error)])
            }
        }

        /// `SEVERITY ID FILE[:ENTRY]: message`, then a summary line.
        func textReport(_ reports: [ValidationReport]) -> String {
            var lines: [String] = []
            for report in reports {
                for diagnostic in report.diagnostics {
                    var place = report.path
                    if let entry = diagnostic.location.entry { place += ":" + entry }
                    var details: [String] = []
                    if let offset = diagnostic.location.offset { details.append("byte \(offset)") }
                    if let pointer = diagnostic.location.jsonPointer { details.append(pointer.isEmpty ? "manifest root" : pointer) }
                    var line = "\(diagnostic.severity.rawValue) \(diagnostic.code.id) \(place): \(diagnostic.message)"
                    if let cause = diagnostic.cause { line += " (\(cause))" }
                    if !details.isEmpty { line += " [" + details.joined(separator: ", ") + "]" }
                    lines.append(line)
                }
            }
            let valid = reports.filter(passes).count
            let errors = reports.reduce(0) { $0 + $1.count(.fatal) + $1.count(.error) }
            let warnings = reports.reduce(0) { $0 + $1.count(.warning) }
            lines.append("\(reports.count) file\(reports.count == 1 ? "" : "s") checked: \(valid) valid, "
                         + "\(reports.count - valid) invalid; \(errors) error\(errors == 1 ? "" : "s"), "
                         + "\(warnings) warning\(warnings == 1 ? "" : "s")")
            return lines.joined(separator: "\n") + "\n"
        }

        struct JSONReport: Encodable {
            struct Message: Encodable {
                var id: String
                var severity: String
                var message: String
                var cause: String?
                var entry: String?
                var offset: UInt64?
                var pointer: String?
            }
            struct File: Encodable {
                var path: String
                var valid: Bool
                /// Why the file could not be read at all (then no verdict on its content).
                var readFailure: String?
                var counts: [String: Int]
                var messages: [Message]
            }
            var format = "imagegallery-validation"
            var formatVersion = 1
            var generator = "imagegallery \(GalleryVersion.string)"
            var strict: Bool
            var files: [File]
            var summary: [String: Int]
        }

        /// The JSON report (Specs/validation-report.md).
        func jsonReport(_ reports: [ValidationReport]) throws -> String {
            let files = reports.map { report in
                JSONReport.File(
                    path: report.path, valid: passes(report), readFailure: report.readFailure,
                    counts: Dictionary(uniqueKeysWithValues: Severity.allCases.map { ($0.rawValue, report.count($0)) }),
                    messages: report.diagnostics.map {
                        .init(id: $0.code.id, severity: $0.severity.rawValue, message: $0.message, cause: $0.cause,
                              entry: $0.location.entry, offset: $0.location.offset, pointer: $0.location.jsonPointer)
                    })
            }
            let valid = files.filter(\.valid).count
            let report = JSONReport(strict: strict, files: files,
                                    summary: ["files": files.count, "valid": valid, "invalid": files.count - valid])
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
            return String(decoding: try encoder.encode(report), as: UTF8.self) + "\n"
        }
    }
}

/// `validate --privacy`: the images' own metadata, read after the file validated, reported per
/// image (IG-PRV-001 to 003).
struct PrivacyCheck {
    var asErrors: Bool

    /// Adds the findings to a report whose file can be read (one without a fatal finding); a file
    /// that cannot be opened as a gallery has its own findings already.
    func check(_ report: inout ValidationReport, opening open: () throws -> ZipArchive) {
        guard !report.diagnostics.contains(where: { $0.severity == .fatal }),
              let reader = try? GalleryReader(archive: open()) else { return }
        report.diagnostics += PrivacySurvey(reader).diagnostics(file: report.path, gallery: reader.gallery, asErrors: asErrors)
    }
}
