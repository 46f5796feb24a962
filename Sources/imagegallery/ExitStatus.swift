import ArgumentParser
import GalleryBuilder
import GalleryConvert
import GalleryDocument
import GalleryFormat
import GalleryImaging

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

/// Runs a command body, printing any failure as one clear line and exiting with its code.
func reportingFailures(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as ExitCode {
        throw error
    } catch let error as ValidationError {
        throw error
    } catch let error as CommandFailure {
        Terminal.error(error.message)
        throw ExitCode(error.status)
    } catch let error as DocumentError {
        Terminal.error(error.description)
        switch error.kind {
        case .editingDisabled: throw ExitCode(ExitStatus.locked)
        case .noSuchImage, .ambiguousImage, .indexOutOfRange, .unknownVersion: throw ExitCode(ExitStatus.usage)
        case .hardLinked, .closed: throw ExitCode(ExitStatus.cannotCreate)
        case .changedSinceAdded, .notAGallery, .differentDocument, .breaksFormatRule: throw ExitCode(ExitStatus.dataError)
        }
    } catch let error as GalleryBuildError {
        switch error.kind {
        case .noSuchSource, .notAFileOrFolder, .cannotListFolder:
            Terminal.error(error.description)
            throw ExitCode(ExitStatus.noInput)
        case .outputExists:
            Terminal.error(error.description + " (use --force to replace it)")
            throw ExitCode(ExitStatus.cannotCreate)
        case .sourceChanged:
            Terminal.error(error.description)
            throw ExitCode(ExitStatus.dataError)
        }
    } catch let error as NotAnImageError {
        Terminal.error(error.description)
        throw ExitCode(ExitStatus.dataError)
    } catch let error as GalleryMerge.DifferentDocuments {
        Terminal.error(error.description)
        throw ExitCode(ExitStatus.dataError)
    } catch let error as GalleryError {
        Terminal.error(error.description)
        throw ExitCode(ExitStatus.dataError)
    } catch let error as ConversionError {
        Terminal.error(error.description)
        switch error.kind {
        case .invalidInput: throw ExitCode(ExitStatus.dataError)
        case .outputExists: throw ExitCode(ExitStatus.cannotCreate)
        case .cannotWrite: throw ExitCode(ExitStatus.ioError)
        }
    } catch let error as FileSystemError {
        Terminal.error(error.description)
        switch error.kind {
        case .notFound, .isDirectory, .notDirectory: throw ExitCode(ExitStatus.noInput)
        case .alreadyExists: throw ExitCode(ExitStatus.cannotCreate)
        case .permissionDenied: throw ExitCode(error.operation == "open" ? ExitStatus.noInput : ExitStatus.cannotCreate)
        case .noSpace, .other: throw ExitCode(ExitStatus.ioError)
        }
    } catch {
        Terminal.error("internal error: \(error)")
        throw ExitCode(ExitStatus.internalError)
    }
}

/// A failure the command itself detected, with its message and exit code.
struct CommandFailure: Error {
    var message: String
    var status: Int32
}
