import SystemPackage

extension FilePath {
    /// The last component as text, "" when there is none (the root, an empty path): what a
    /// name built beside a file starts from (".trip.imagegallery.lock"), which needs text, not
    /// an optional. Written once so that every such name treats a path without one the same way.
    package var lastComponentName: String { lastComponent?.string ?? "" }
}
