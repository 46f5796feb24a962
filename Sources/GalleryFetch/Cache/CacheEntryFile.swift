#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GalleryFormat

/// One cache entry on disk:
///
///     "IGHTTP1\n"   8 bytes
///     length        UInt32, little-endian: the size of the record that follows
///     record        JSON: the response without its body, plus the body's length and SHA-256
///     body
///
/// Everything is checked on reading; an entry that does not check out is reported corrupt.
enum CacheEntryFile {
    static let magic = Array("IGHTTP1\n".utf8)
    static let largestRecord = 256 << 10

    struct Record: Codable {
        var url: String
        var status: Int
        var fields: [String: [String]]
        var requestTime: Int64
        var responseTime: Int64
        var bodyLength: Int
        var bodySHA256: String
    }

    enum Outcome {
        case missing
        case corrupt
        case entry(CachedResponse)
    }

    static func read(_ path: String, key: String, limit: Int) -> Outcome {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return errno == ENOENT ? .missing : .corrupt }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
              status.st_size >= 12, status.st_size <= limit + largestRecord + 12 else { return .corrupt }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        let count = bytes.withUnsafeMutableBytes { buffer -> Int in
            var done = 0
            while done < buffer.count {
                let n = Glibc.read(descriptor, buffer.baseAddress! + done, buffer.count - done)
                if n <= 0 { break }
                done += n
            }
            return done
        }
        guard count == bytes.count, Array(bytes[0 ..< 8]) == magic else { return .corrupt }
        let recordLength = Int(bytes[8]) | Int(bytes[9]) << 8 | Int(bytes[10]) << 16 | Int(bytes[11]) << 24
        guard recordLength <= largestRecord, 12 + recordLength <= bytes.count,
              let record = try? JSONDecoder().decode(Record.self, from: Data(bytes[12 ..< 12 + recordLength])),
              record.url == key, record.bodyLength == bytes.count - 12 - recordLength
        else { return .corrupt }
        let body = Array(bytes[(12 + recordLength)...])
        guard SHA256Hasher.of(body).hex == record.bodySHA256 else { return .corrupt }
        return .entry(CachedResponse(url: record.url, status: record.status, fields: record.fields,
                                     requestTime: record.requestTime, responseTime: record.responseTime, body: body))
    }

    /// Writes the entry under a temporary name and renames it into place; returns its size.
    static func write(_ response: CachedResponse, to path: String, temporaryFolder: String) throws -> Int {
        let record = Record(url: response.url, status: response.status, fields: response.fields,
                            requestTime: response.requestTime, responseTime: response.responseTime,
                            bodyLength: response.body.count, bodySHA256: SHA256Hasher.of(response.body).hex)
        let json = try JSONEncoder().encode(record)
        var bytes = magic
        bytes.reserveCapacity(12 + json.count + response.body.count)
        let length = UInt32(json.count)
        bytes += [UInt8(length & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length >> 16 & 0xFF), UInt8(length >> 24)]
        bytes += json
        bytes += response.body

        let folder = String(path[..<path.lastIndex(of: "/")!])
        for directory in [temporaryFolder, folder] where access(directory, F_OK) != 0 {
            try HTTPCache.makePrivateFolder(directory)
        }
        let temporary = "\(temporaryFolder)/\(UUID().uuidString).entry"
        do {
            // No fsync: a cache may lose entries in a crash, and the body checksum turns an
            // entry the crash left empty or partial into a miss.
            try GalleryFile.create(temporary, mode: 0o600).write(bytes, at: 0)
            guard rename(temporary, path) == 0 else { throw FileSystemError.current(path: path, operation: "rename") }
        } catch {
            unlink(temporary)
            throw error
        }
        return bytes.count
    }
}
