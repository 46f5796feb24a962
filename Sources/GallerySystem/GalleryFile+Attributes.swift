import SystemPackage

// What a save carries over from the file it replaces, so that saving does not quietly change
// who may read the document or drop its metadata.

extension GalleryFile {
    /// Makes this file's permissions, owner (where allowed) and extended attributes those of
    /// the file at `source`.
    package func copyAttributes(of source: FilePath) throws {
        let original = try FileStatus.stat(source, followingLinks: true)
        // Owner first: chown may clear set-id bits, which the mode then restores.
        if case .failure = Syscalls.setOwner(descriptor, user: original.userID, group: original.groupID) {
            // Only root may give a file away; a group the user is in is still allowed.
            _ = Syscalls.setOwner(descriptor, user: Syscalls.currentUser, group: original.groupID)
        }
        try Syscalls.setPermissions(descriptor, FilePermissions(rawValue: original.permissions.rawValue & 0o7777))
            .get(path: path, operation: "set the permissions of")
        try copyExtendedAttributes(of: source.string).get(path: source.string, operation: "copy the extended attributes of")
    }

    /// Copies the extended attributes one by one. Names the destination's file system refuses
    /// (ENOTSUP, or EPERM for trusted.* and security.* without privilege) are skipped, because
    /// a save must not fail over metadata it cannot carry; so is an attribute that vanished
    /// while it was read. Anything else is an error.
    private func copyExtendedAttributes(of source: String) -> Result<Void, Errno> {
        let names: [CChar]
        switch Syscalls.attributeNames(source) {
        case .success(let got): names = got
        case .failure(let code) where code == .notSupported || code == .noData: return .success(())
        case .failure(let code): return .failure(code)
        }
        var start = 0
        while start < names.count {
            let end = names[start...].firstIndex(of: 0) ?? names.count
            let name = Array(names[start ..< end]) + [0]
            start = end + 1
            let result: Result<Void, Errno> = name.withUnsafeBufferPointer { name in
                guard case .success(let value) = Syscalls.attribute(name.baseAddress!, of: source) else { return .success(()) }
                switch Syscalls.setAttribute(name.baseAddress!, value, on: descriptor) {
                case .failure(let code) where code != .notSupported && code != .notPermitted: return .failure(code)
                default: return .success(())
                }
            }
            if case .failure = result { return result }
        }
        return .success(())
    }
}
