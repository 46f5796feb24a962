import CArchive
internal import COnDemand
import GalleryFormat
import GallerySystem

/// libarchive, read entry by entry, with its C types kept inside. Only the formats and filters
/// named here are enabled: `archive_read_support_filter_all` would let an archive start external
/// programs (lrzip, lzop, …) for its decompression.
final class ArchiveReader {
    private let handle: OpaquePointer
    let path: String

    struct Entry {
        enum Kind { case file, directory, symbolicLink, hardLink, other }
        var name: String
        var kind: Kind
        var declaredSize: UInt64?
        var modified: Int64?
        var encrypted: Bool
    }

    init(path: String, kind: ArchiveKind?) throws {
        var reason: UnsafePointer<CChar>?
        guard ig_library_load(IG_LIBRARY_ARCHIVE, &reason) != 0 else {
            throw ConversionError(path, "archives cannot be read here: " + (reason.map { String(cString: $0) } ?? "libarchive is missing"))
        }
        guard let handle = archive_read_new() else { throw ConversionError(path, "libarchive could not start") }
        self.handle = handle
        self.path = path
        archive_read_support_filter_none(handle)
        archive_read_support_filter_gzip(handle)
        archive_read_support_filter_bzip2(handle)
        archive_read_support_filter_xz(handle)
        archive_read_support_filter_lzma(handle)
        archive_read_support_filter_zstd(handle)
        switch kind {
        case .zip?: archive_read_support_format_zip(handle)
        case .tar?: archive_read_support_format_tar(handle); archive_read_support_format_gnutar(handle)
        case .sevenZip?: archive_read_support_format_7zip(handle)
        case .rar?: archive_read_support_format_rar(handle); archive_read_support_format_rar5(handle)
        case nil:
            archive_read_support_format_zip(handle)
            archive_read_support_format_tar(handle)
            archive_read_support_format_gnutar(handle)
            archive_read_support_format_7zip(handle)
            archive_read_support_format_rar(handle)
            archive_read_support_format_rar5(handle)
        }
        // On failure, deinit frees the handle: every stored property is set by now.
        guard Self.withUTF8Names({ archive_read_open_filename(handle, path, 1 << 16) }) == ARCHIVE_OK else {
            throw ConversionError(path, "cannot be read as an archive: \(errorText)")
        }
    }

    deinit { archive_read_free(handle) }

    /// Runs `body` with this thread's character set UTF-8. libarchive gives names in the current
    /// locale's character set, and a program that never called setlocale is in "C", plain ASCII:
    /// every non-ASCII name in a ZIP (UTF-8 flagged), 7-Zip or RAR archive failed to convert and
    /// came back empty, so a comic book with pages named in Japanese had no pages. libarchive
    /// settles an archive's character set the first time it converts a name, which is in `open`
    /// or `next`; the thread's own locale leaves the process's and other threads alone.
    private static func withUTF8Names<T>(_ body: () throws -> T) rethrows -> T {
        try CurrentProcess.withUTF8CharacterSet(body)
    }

    var errorText: String {
        archive_error_string(handle).map { String(cString: $0) } ?? "unknown libarchive error"
    }

    /// Bytes of the archive file consumed so far.
    var compressedBytesRead: UInt64 { UInt64(max(archive_filter_bytes(handle, -1), 0)) }

    /// The next entry, or nil at the end.
    func next() throws -> Entry? {
        try Self.withUTF8Names { try nextEntry() }
    }

    private func nextEntry() throws -> Entry? {
        var entry: OpaquePointer?
        let status = archive_read_next_header(handle, &entry)
        if status == ARCHIVE_EOF { return nil }
        guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else {
            throw ConversionError(path, "the archive is damaged or unsupported: \(errorText)")
        }
        let name = archive_entry_pathname_utf8(entry).map { String(cString: $0) }
            ?? archive_entry_pathname(entry).map { String(decoding: Self.bytes($0), as: UTF8.self) }
            ?? ""
        let kind: Entry.Kind
        if archive_entry_hardlink(entry) != nil {
            kind = .hardLink
        } else {
            // AE_IFREG, AE_IFDIR and AE_IFLNK: macros with casts, which Swift does not import.
            switch archive_entry_filetype(entry) {
            case 0o100000: kind = .file
            case 0o040000: kind = .directory
            case 0o120000: kind = .symbolicLink
            default: kind = .other
            }
        }
        return Entry(name: name, kind: kind,
                     declaredSize: archive_entry_size_is_set(entry) != 0 ? UInt64(max(archive_entry_size(entry), 0)) : nil,
                     modified: archive_entry_mtime_is_set(entry) != 0 ? Int64(archive_entry_mtime(entry)) : nil,
                     encrypted: archive_entry_is_encrypted(entry) != 0)
    }

    /// Reads the current entry's data into `buffer`; 0 at its end.
    func read(into buffer: UnsafeMutableRawBufferPointer, entry: String) throws -> Int {
        let count = archive_read_data(handle, buffer.baseAddress, buffer.count)
        guard count >= 0 else {
            throw ConversionError(path, entry: entry, "cannot be read: \(errorText)")
        }
        return count
    }

    private static func bytes(_ text: UnsafePointer<CChar>) -> [UInt8] {
        var bytes: [UInt8] = []
        var pointer = text
        while pointer.pointee != 0 {
            bytes.append(UInt8(bitPattern: pointer.pointee))
            pointer += 1
        }
        return bytes
    }
}
