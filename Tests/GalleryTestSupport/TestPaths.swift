import Foundation

/// Where the repository and its fixtures are, and the programs under test.
public enum TestPaths {
    /// The repository root, found from this source file's place.
    public static let repository: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0 ..< 3 { url.deleteLastPathComponent() }
        return url.path
    }()

    public static func fixture(_ relative: String) -> String { repository + "/Fixtures/" + relative }

    public static func spec(_ name: String) -> String { repository + "/Specs/" + name }

    /// Files in a fixture folder with the given extension, sorted. A folder that is missing, or
    /// that holds no such file, is an error: a test over its files would otherwise run no case.
    public static func fixtures(in folder: String, withExtension ext: String) throws -> [String] {
        let directory = fixture(folder)
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw MissingTestInput(description: "the fixture folder \(directory) cannot be read: \(error)")
        }
        let found = names.filter { $0.hasSuffix("." + ext) }.sorted().map { directory + "/" + $0 }
        guard !found.isEmpty else {
            throw MissingTestInput(description: "the fixture folder \(directory) holds no .\(ext) file")
        }
        return found
    }

    /// The `imagegallery` binary under test, named by `IMAGEGALLERY_BINARY`. Never guessed: a
    /// binary found by looking around (beside the test bundle, in .build/debug) may be older
    /// than the sources. `make test` sets it to the debug build it has just made.
    public static func binary() throws -> String {
        try executable(named: "IMAGEGALLERY_BINARY", example: ".build/debug/imagegallery")
    }

    /// The fetch helper under test, named by `IMAGEGALLERY_FETCH_BINARY`. `imagegallery` runs
    /// the helper beside itself, so this must be that very file.
    public static func fetchHelper() throws -> String {
        try helper(named: "IMAGEGALLERY_FETCH_BINARY", beside: binary(), example: ".build/debug/imagegallery-fetch")
    }

    /// The editor's server under test, named by `IMAGEGALLERY_EDITOR_BINARY`. `imagegallery edit`
    /// runs the one beside itself, so this must be that very file.
    public static func editor() throws -> String {
        try helper(named: "IMAGEGALLERY_EDITOR_BINARY", beside: binary(), example: ".build/debug/imagegallery-editor")
    }

    /// The static release binary (`--static-swift-stdlib`), named by `IMAGEGALLERY_STATIC_BINARY`:
    /// what the desktop clients, the address-space caps and the hostile corpus are run against.
    public static func staticBinary() throws -> String {
        try executable(named: "IMAGEGALLERY_STATIC_BINARY", example: ".build/release/imagegallery")
    }

    /// The fetch helper beside the static binary, named by `IMAGEGALLERY_STATIC_FETCH_BINARY`.
    public static func staticFetchHelper() throws -> String {
        try helper(named: "IMAGEGALLERY_STATIC_FETCH_BINARY", beside: staticBinary(), example: ".build/release/imagegallery-fetch")
    }

    /// The confined thumbnailer beside the static binary (what the thumbnailer entry runs),
    /// named by `IMAGEGALLERY_THUMBNAILER_BINARY`.
    public static func thumbnailer() throws -> String {
        try helper(named: "IMAGEGALLERY_THUMBNAILER_BINARY", beside: staticBinary(), example: ".build/release/imagegallery-thumbnailer")
    }

    /// What the Makefile's test target sets, for the messages.
    static let howToSet = "`make test` sets IMAGEGALLERY_BINARY, IMAGEGALLERY_FETCH_BINARY, IMAGEGALLERY_EDITOR_BINARY, "
        + "IMAGEGALLERY_STATIC_BINARY, IMAGEGALLERY_THUMBNAILER_BINARY and "
        + "IMAGEGALLERY_STATIC_FETCH_BINARY to the programs it has just built (see the Makefile's test target); "
        + "to run the tests by hand, build them and set the same variables"

    static func executable(named variable: String, example: String) throws -> String {
        guard let path = ProcessInfo.processInfo.environment[variable], !path.isEmpty else {
            throw MissingTestInput(description: "\(variable) is not set: it must name the program under test "
                                   + "(e.g. \(repository)/\(example)). \(howToSet)")
        }
        guard path.hasPrefix("/") else {
            throw MissingTestInput(description: "\(variable)=\(path) is not an absolute path (tests run programs from other folders)")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
              FileManager.default.isExecutableFile(atPath: path) else {
            throw MissingTestInput(description: "\(variable)=\(path): no executable file there (not built?). \(howToSet)")
        }
        return path
    }

    static func helper(named variable: String, beside binary: String, example: String) throws -> String {
        let helper = try executable(named: variable, example: example)
        let name = (example as NSString).lastPathComponent
        let besideIt = (binary as NSString).deletingLastPathComponent + "/" + name
        guard let named = identity(helper), let found = identity(besideIt), named == found else {
            throw MissingTestInput(description: "\(variable)=\(helper), but \(binary) runs the helper beside it, "
                                   + "\(besideIt), which is \(identity(besideIt) == nil ? "missing" : "another file")")
        }
        return helper
    }

    /// Device and inode of a file, links followed.
    private static func identity(_ path: String) -> [UInt64]? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return [UInt64(status.st_dev), UInt64(status.st_ino)]
    }
}
