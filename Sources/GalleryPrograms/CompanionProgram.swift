import GallerySystem
import SystemPackage

/// A program that `imagegallery` hands work to and that ships beside it: the fetch helper, the
/// editor's server. Each keeps code out of the binary that every thumbnail and validation starts.
package struct CompanionProgram: Sendable {
    /// The executable's file name, such as "imagegallery-editor".
    package var name: String
    /// Names the program to use instead of looking for it (packagers, tests).
    package var environmentVariable: String
    /// What it is, for messages: "the fetch helper".
    package var role: String

    package init(name: String, environmentVariable: String, role: String) {
        self.name = name
        self.environmentVariable = environmentVariable
        self.role = role
    }

    /// Where the program is: `$environmentVariable`, else beside this executable (a build
    /// folder), else in `../libexec/imagegallery/` from it (an installation).
    package func locate(environment: [String: String]) -> Result<String, LocateFailure> {
        if let given = environment[environmentVariable], !given.isEmpty {
            return GalleryFileSystem.isExecutable(FilePath(given)) ? .success(given) : .failure(LocateFailure(program: self, tried: [given]))
        }
        guard let executable = CurrentProcess.executablePath() else { return .failure(LocateFailure(program: self, tried: [])) }
        let folder = FilePath(executable).removingLastComponent()
        let candidates = [folder.appending(name), folder.appending("../libexec/imagegallery").appending(name)]
        for candidate in candidates where GalleryFileSystem.isExecutable(candidate) { return .success(candidate.string) }
        return .failure(LocateFailure(program: self, tried: candidates.map(\.string)))
    }

    /// The program was not where it is looked for.
    package struct LocateFailure: Error, Sendable, CustomStringConvertible {
        package var program: CompanionProgram
        package var tried: [String]
        package var description: String {
            "\(program.role) \(program.name) was not found" + (tried.isEmpty ? "" : " (looked for \(tried.joined(separator: " and ")))")
        }
    }
}

/// The editor's server, `imagegallery-editor`, which `imagegallery edit` becomes.
package enum EditorProgram {
    package static let program = CompanionProgram(
        name: "imagegallery-editor", environmentVariable: "IMAGEGALLERY_EDITOR", role: "the editor's server")
}
