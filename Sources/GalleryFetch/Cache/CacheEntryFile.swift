import Foundation
import GalleryFormat
import GallerySystem
import SystemPackage

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

    static func read(_ path: FilePath, key: String, limit: Int) -> Outcome {
        let bytes: [UInt8]
        do {
            // A link is refused, and anything but a plain file: an entry is a file we wrote.
            let file = try GalleryFile.openForReading(path, followingLinks: false)
            let size = try file.size
            guard size >= 12, size <= UInt64(limit + largestRecord + 12) else { return .corrupt }
            bytes = try file.read(at: 0, count: Int(size))
            guard bytes.count == Int(size) else { return .corrupt }
        } catch let error as FileSystemError where error.kind == .notFound {
            return .missing
        } catch {
            return .corrupt
        }
        guard Array(bytes[0 ..< 8]) == magic else { return .corrupt }
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
    static func write(_ response: CachedResponse, to path: FilePath, temporaryFolder: FilePath) throws -> Int {
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

        for directory in [temporaryFolder, path.removingLastComponent()] where PathKind.of(directory) == .missing {
            try HTTPCache.makePrivateFolder(directory)
        }
        let temporary = temporaryFolder.appending(UUID().uuidString + ".entry")
        do {
            // No fsync: a cache may lose entries in a crash, and the body checksum turns an
            // entry the crash left empty or partial into a miss.
            try GalleryFile.create(temporary, permissions: .ownerReadWrite).write(bytes, at: 0)
            do throws(FileSystemError) {
                try GalleryFileSystem.rename(temporary, to: path)
            } catch {
                throw FileSystemError(error.code, path: path.string, operation: "rename")
            }
        } catch {
            GalleryFileSystem.remove(temporary)
            throw error
        }
        return bytes.count
    }
}
