import ArgumentParser
import GalleryBuilder
import GalleryConvert
import GalleryDocument
import GalleryFormat
import GalleryImaging
import GallerySystem

/// The documented exit codes (see `imagegallery --help`), after sysexits.h.
enum ExitStatus {
    static let internalError: Int32 = 1
    /// An edit reached the disk as a version only (someone else had changed the file), or a
    /// merge kept one side where both had changed something.
    static let conflict: Int32 = 3
    /// Some of the images asked for (URLs that failed) were not added; the rest were.
    static let partlyAdded: Int32 = 4
    /// None of the images asked for could be added; nothing was written.
    static let nothingAdded: Int32 = 5
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let noInput: Int32 = 66
    /// The fetch helper (imagegallery-fetch) is missing or failed: URLs cannot be fetched.
    static let unavailable: Int32 = 69
    static let cannotCreate: Int32 = 73
    static let ioError: Int32 = 74
    /// Another editor held the document for longer than --wait.
    static let locked: Int32 = 75
}

extension CommandFailure {
    /// What a failure a command met is to the person at the terminal: one clear line and the
    /// documented exit status. The one place where errors become exit codes.
    init(_ error: any Error) {
        if let failure = error as? CommandFailure {
            self = failure
        } else if let status = Self.status(for: error) {
            self.init(message: (error as? GalleryBuildError)?.kind == .outputExists
                          ? "\(error) (use --force to replace it)" : "\(error)",
                      status: status)
        } else {
            self.init(message: "internal error: \(error)", status: ExitStatus.internalError)
        }
    }

    /// The exit status of each error the library throws; nil for one it does not (a bug).
    private static func status(for error: any Error) -> Int32? {
        switch error {
        case let error as DocumentError:
            return switch error.kind {
            case .editingDisabled: ExitStatus.locked
            case .noSuchImage, .ambiguousImage, .indexOutOfRange, .unknownVersion: ExitStatus.usage
            case .hardLinked, .closed: ExitStatus.cannotCreate
            case .changedSinceAdded, .notAGallery, .differentDocument, .breaksFormatRule: ExitStatus.dataError
            }
        case let error as GalleryBuildError:
            return switch error.kind {
            case .noSuchSource, .notAFileOrFolder, .cannotListFolder: ExitStatus.noInput
            case .outputExists: ExitStatus.cannotCreate
            case .sourceChanged: ExitStatus.dataError
            }
        case is NotAnImageError, is GalleryMerge.DifferentDocuments, is GalleryError:
            return ExitStatus.dataError
        case let error as ConversionError:
            return switch error.kind {
            case .invalidInput: ExitStatus.dataError
            case .outputExists: ExitStatus.cannotCreate
            case .cannotWrite: ExitStatus.ioError
            }
        case let error as FileSystemError:
            return switch error.kind {
            case .notFound, .isDirectory, .notDirectory: ExitStatus.noInput
            case .alreadyExists: ExitStatus.cannotCreate
            case .permissionDenied: error.operation == "open" ? ExitStatus.noInput : ExitStatus.cannotCreate
            case .noSpace, .other: ExitStatus.ioError
            }
        default:
            return nil
        }
    }
}

/// A failure the command itself detected, with its message and exit code.
struct CommandFailure: Error {
    var message: String
    var status: Int32
}
