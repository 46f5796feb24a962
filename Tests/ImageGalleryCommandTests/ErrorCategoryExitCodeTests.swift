import GalleryBuilder
import GalleryConvert
@testable import GalleryDocument
import GalleryFormat
import GalleryImageHeaders
import GalleryImaging
import GallerySystem
import SystemPackage
import Testing
@testable import imagegallery

/// The exit status and message the command line gives each error a library throws: the status
/// of the error's category, pinned here to the codes documented in `imagegallery --help`, which
/// were each type's own before there were categories.
@Suite("Error categories: the command line's exit codes")
struct ErrorCategoryExitCodeTests {
    static let path = "/tmp/x.imagegallery"

    static func status(_ error: any Error) -> Int32 { CommandFailure(error).status }

    @Test func namedStatusesAreTheDocumentedCodes() {
        #expect([ExitStatus.internalError, ExitStatus.conflict, ExitStatus.partlyAdded, ExitStatus.nothingAdded]
                    == [1, 3, 4, 5])
        #expect([ExitStatus.usage, ExitStatus.dataError, ExitStatus.noInput, ExitStatus.unavailable, ExitStatus.cannotCreate,
                 ExitStatus.ioError, ExitStatus.locked] == [64, 65, 66, 69, 73, 74, 75])
    }

    /// validate's codes are CI's (0 valid, 1 invalid, 2 no verdict) and merge-driver's git's
    /// (1: conflicts), not sysexits.h's; they are rows of the same table all the same.
    @Test func validateAndMergeDriverOutcomesAreTheirOwnCodes() {
        #expect([ErrorCategory.invalid.exitStatus, ErrorCategory.checkNotMade.exitStatus] == [1, 2])
        #expect([ExitStatus.invalid, ExitStatus.checkNotMade] == [1, 2])
        #expect(ErrorCategory.mergeConflict.exitStatus == 1)
        #expect(ExitStatus.mergeConflict == 1)
    }

    @Test func documentErrors() {
        let expected: [(DocumentError.Kind, Int32)] = [
            (.editingDisabled, 75), (.noSuchImage, 64), (.ambiguousImage, 64), (.indexOutOfRange, 64), (.unknownVersion, 64),
            (.hardLinked(count: 2), 73), (.closed, 73), (.changedSinceAdded, 65), (.notAGallery, 65),
            (.differentDocument, 65), (.breaksFormatRule(.badValue), 65),
        ]
        for (kind, code) in expected {
            #expect(Self.status(DocumentError(kind, path: Self.path, "refused")) == code, "\(kind)")
        }
    }

    @Test(arguments: GalleryBuildError.Kind.allCases)
    func galleryBuildErrors(_ kind: GalleryBuildError.Kind) {
        let code: Int32 = switch kind {
        case .noSuchSource, .notAFileOrFolder, .cannotListFolder: 66
        case .outputExists: 73
        case .sourceChanged: 65
        }
        #expect(Self.status(GalleryBuildError(kind, path: Self.path, "failed")) == code)
    }

    @Test(arguments: FileSystemError.Kind.allCases, ["open", "rename x.tmp to"])
    func fileSystemErrors(_ kind: FileSystemError.Kind, operation: String) {
        let code: Int32 = switch kind {
        case .notFound, .isDirectory, .notDirectory: 66
        case .alreadyExists: 73
        case .permissionDenied: operation == "open" ? 66 : 73
        case .noSpace, .other: 74
        }
        #expect(Self.status(FileSystemError(kind: kind, path: Self.path, operation: operation, code: .ioError)) == code)
    }

    @Test(arguments: ConversionError.Kind.allCases)
    func conversionErrors(_ kind: ConversionError.Kind) {
        let code: Int32 = switch kind {
        case .invalidInput: 65
        case .outputExists: 73
        case .cannotWrite: 74
        }
        #expect(Self.status(ConversionError(Self.path, "failed", kind: kind)) == code)
    }

    @Test(arguments: ImageDecodeError.Kind.allCases)
    func imageDecodeErrors(_ kind: ImageDecodeError.Kind) {
        let code: Int32 = switch kind {
        case .corrupt, .pastLimit: 65
        }
        #expect(Self.status(ImageDecodeError(kind, "failed")) == code)
    }

    @Test func dataErrors() {
        #expect(Self.status(NotAnImageError(path: Self.path, reason: "a text file")) == 65)
        #expect(Self.status(GalleryMerge.DifferentDocuments()) == 65)
        #expect(Self.status(GalleryError(.badValue, "out of range")) == 65)
        #expect(Self.status(ImageHeaderError("truncated")) == 65)
    }

    @Test func messagesSayTheErrorAndAnOutputThatExistsTheWayOut() {
        let exists = CommandFailure(GalleryBuildError(.outputExists, path: Self.path, "already exists"))
        #expect(exists.message == "\(Self.path): already exists (use --force to replace it)")
        #expect(CommandFailure(NotAnImageError(path: Self.path, reason: "a text file")).message == "\(Self.path): a text file")
    }

    @Test func anErrorOfNoCategoryIsAnInternalErrorAndACommandsOwnFailureStaysItsOwn() {
        struct Bug: Error, CustomStringConvertible { var description: String { "a bug" } }
        let bug = CommandFailure(Bug())
        #expect(bug.status == 1)
        #expect(bug.message == "internal error: a bug")
        let own = CommandFailure(CommandFailure(message: "no such file", status: 2))
        #expect(own.status == 2)
        #expect(own.message == "no such file")
    }
}
