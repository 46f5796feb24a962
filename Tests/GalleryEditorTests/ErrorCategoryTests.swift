import Foundation
import GalleryBuilder
@testable import GalleryConvert
@testable import GalleryDocument
import GalleryFormat
import GalleryImageHeaders
import GalleryImaging
@testable import GalleryPrograms
import GallerySystem
import Hummingbird
import SystemPackage
import Testing
@testable import GalleryEditor

/// Every error the libraries throw, kind by kind, with the exit status its category gives the
/// command line (written out: today's documented codes) and the HTTP status the editor answers.
/// 500 is the server's own failure only (a bug, or I/O); everything else is 4xx, or 503 for a
/// helper that is missing. Deleting a category, a row of the table or a conformance fails here;
/// the kinds without payloads are taken from `allCases`, so a kind added without a mapping (one
/// that falls to `internal`) fails too. Kinds with payloads (`DocumentError.Kind`, `EditorError`)
/// cannot list their cases, so they are listed here, one of each.
@Suite("Error categories: exit and HTTP statuses")
struct ErrorCategoryTests {
    /// One error, the exit status it must give and the HTTP status the editor must answer.
    struct Row: CustomStringConvertible {
        var error: any Error
        var exit: Int32
        var http: Int
        /// The kind, when the message does not say it.
        var kind = ""
        var description: String { "\(type(of: error))\(kind.isEmpty ? "" : " " + kind): \(error)" }
    }

    static let path = "/tmp/x.imagegallery"

    static func document(_ kind: DocumentError.Kind) -> (exit: Int32, http: Int) {
        switch kind {
        case .editingDisabled: (75, 409)
        case .noSuchImage: (64, 404)
        case .ambiguousImage, .indexOutOfRange, .unknownVersion: (64, 422)
        case .hardLinked: (73, 422)
        case .closed: (73, 409)
        case .changedSinceAdded, .notAGallery, .differentDocument, .breaksFormatRule: (65, 422)
        }
    }

    static let documentKinds: [DocumentError.Kind] = [
        .closed, .editingDisabled, .hardLinked(count: 2), .noSuchImage, .ambiguousImage, .indexOutOfRange,
        .changedSinceAdded, .unknownVersion, .notAGallery, .differentDocument, .breaksFormatRule(.badValue),
    ]

    static func build(_ kind: GalleryBuildError.Kind) -> (exit: Int32, http: Int) {
        switch kind {
        case .noSuchSource, .notAFileOrFolder, .cannotListFolder: (66, 404)
        case .outputExists: (73, 422)
        case .sourceChanged: (65, 422)
        }
    }

    static func fileSystem(_ kind: FileSystemError.Kind, opening: Bool) -> (exit: Int32, http: Int) {
        switch kind {
        case .notFound, .isDirectory, .notDirectory: (66, 404)
        case .alreadyExists: (73, 422)
        case .permissionDenied: opening ? (66, 404) : (73, 422)
        case .noSpace, .other: (74, 500)
        }
    }

    static func conversion(_ kind: ConversionError.Kind) -> (exit: Int32, http: Int) {
        switch kind {
        case .invalidInput: (65, 422)
        case .outputExists: (73, 422)
        case .cannotWrite: (74, 500)
        }
    }

    static func decode(_ kind: ImageDecodeError.Kind) -> (exit: Int32, http: Int) {
        switch kind {
        case .corrupt, .pastLimit: (65, 422)
        }
    }

    static func editor(_ error: EditorError) -> (exit: Int32, http: Int) {
        switch error {
        case .notAFolderOrGallery, .badRequest: (64, 422)
        case .outsideOpenedPaths: (64, 403)
        case .noSuchGallery: (66, 404)
        case .cannotListen: (73, 422)
        }
    }

    static func row(_ error: any Error, _ expected: (exit: Int32, http: Int), kind: Any) -> Row {
        Row(error: error, exit: expected.exit, http: expected.http, kind: "\(kind)")
    }

    static var rows: [Row] {
        var rows: [Row] = []
        rows += documentKinds.map { row(DocumentError($0, path: path, "refused"), document($0), kind: $0) }
        rows += GalleryBuildError.Kind.allCases.map { row(GalleryBuildError($0, path: path, "failed"), build($0), kind: $0) }
        for kind in FileSystemError.Kind.allCases {
            for operation in ["open", "create"] {
                rows.append(row(FileSystemError(kind: kind, path: path, operation: operation, code: .ioError),
                                fileSystem(kind, opening: operation == "open"), kind: kind))
            }
        }
        rows += ConversionError.Kind.allCases.map {
            row(ConversionError(path, "cannot convert", kind: $0), conversion($0), kind: $0)
        }
        rows += ImageDecodeError.Kind.allCases.map { row(ImageDecodeError($0, "bad"), decode($0), kind: $0) }
        let editorErrors: [EditorError] = [
            .notAFolderOrGallery(path), .noSuchGallery("g1"), .outsideOpenedPaths(path), .badRequest("what?"), .cannotListen("no"),
        ]
        rows += editorErrors.map { row($0, editor($0), kind: "") }
        rows += [
            Row(error: GalleryError(.badValue, "out of range"), exit: 65, http: 422),
            Row(error: ImageHeaderError("truncated"), exit: 65, http: 422),
            Row(error: NotAnImageError(path: path, reason: "a text file"), exit: 65, http: 422),
            Row(error: GalleryMerge.DifferentDocuments(), exit: 65, http: 422),
            Row(error: ComicInfo.ParseError(description: "an unclosed tag"), exit: 65, http: 422),
            Row(error: FetchItemFailure(url: "https://example.org/a.jpg", code: "http-status", message: "HTTP 404"), exit: 5, http: 422),
            Row(error: FetchHelperClient.Failure.garbled("garbled"), exit: 69, http: 503),
            Row(error: FetchHelperClient.Failure.cannotRun(helper: "imagegallery-fetch", reason: "no"), exit: 69, http: 503),
            Row(error: FetchHelperClient.Failure.notFound(locate), exit: 69, http: 503),
            Row(error: locate, exit: 69, http: 503),
        ]
        return rows
    }

    static var locate: CompanionProgram.LocateFailure {
        CompanionProgram.LocateFailure(program: FetchHelper.program, tried: ["/nowhere/imagegallery-fetch"])
    }

    @Test func eachCategoryHasItsDocumentedExitAndHTTPStatus() {
        let expected: [ErrorCategory: (exit: Int32, http: Int)] = [
            .internal: (1, 500), .conflict: (3, 409), .partlyAdded: (4, 422), .nothingAdded: (5, 422),
            .usage: (64, 422), .data: (65, 422), .missingInput: (66, 404), .unavailable: (69, 503),
            .output: (73, 422), .io: (74, 500), .busy: (75, 409),
            .invalid: (1, 422), .checkNotMade: (2, 422), .mergeConflict: (1, 409),
        ]
        #expect(Set(expected.keys) == Set(ErrorCategory.allCases))
        for category in ErrorCategory.allCases {
            #expect(category.exitStatus == expected[category]?.exit, "\(category)")
            #expect(category.httpStatus == expected[category]?.http, "\(category)")
        }
    }

    @Test(arguments: rows)
    func everyErrorHasItsExitAndHTTPStatus(_ row: Row) {
        #expect(ErrorCategory(of: row.error) != .internal, "no category")
        #expect(ErrorCategory(of: row.error).exitStatus == row.exit)
        #expect(Responses.status(for: row.error).code == row.http)
        #expect(Responses.error(row.error).status.code == row.http)
        let category = ErrorCategory(of: row.error)
        if row.http >= 500, row.http != 503 { #expect(category == .io || category == .internal) }
    }

    /// The types the editor's own switch had no case for answered 500; their category now
    /// says whose fault it was.
    @Test func errorsTheEditorAnswered500ForAreNow4xx() {
        let missed: [any Error] = [
            FileSystemError(kind: .notFound, path: Self.path, operation: "open", code: .noSuchFileOrDirectory),
            FileSystemError(kind: .alreadyExists, path: Self.path, operation: "create", code: .fileExists),
            NotAnImageError(path: Self.path, reason: "a text file"),
            GalleryBuildError(.noSuchSource, path: Self.path, "no such file"),
            ImageDecodeError(.corrupt, "truncated"),
            ImageHeaderError("truncated"),
            GalleryMerge.DifferentDocuments(),
        ]
        for error in missed {
            let status = Responses.error(error).status.code
            #expect((400..<500).contains(status), "\(type(of: error)): \(status)")
        }
        #expect(Responses.error(FileSystemError(kind: .notFound, path: Self.path, operation: "open", code: .noSuchFileOrDirectory))
            .status == .notFound)
        #expect(Responses.error(NotAnImageError(path: Self.path, reason: "a text file")).status == .unprocessableContent)
    }

    @Test func aRoutesOwnStatusAndUndeclaredErrorsKeepTheirs() {
        #expect(Responses.error(HTTPError(.contentTooLarge, message: "too large")).status == .contentTooLarge)
        #expect(Responses.error(HTTPError(.conflict, message: "open elsewhere")).status == .conflict)
        let decoding = DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not JSON"))
        #expect(Responses.error(decoding).status == .unprocessableContent)
        struct Bug: Error {}
        #expect(ErrorCategory(of: Bug()) == .internal)
        #expect(Responses.error(Bug()).status == .internalServerError)
    }
}
