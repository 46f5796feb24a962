/// The ZIP records this project reads and writes, field by field as APPNOTE 6.3.10 lays them out.
enum ZipSignature {
    static let localFileHeader: UInt32 = 0x0403_4B50
    static let centralFileHeader: UInt32 = 0x0201_4B50
    static let endOfCentralDirectory: UInt32 = 0x0605_4B50
    static let zip64EndOfCentralDirectory: UInt32 = 0x0606_4B50
    static let zip64Locator: UInt32 = 0x0706_4B50
    static let dataDescriptor: UInt32 = 0x0807_4B50
}

enum ZipFlag {
    static let encrypted: UInt16 = 1 << 0
    static let dataDescriptor: UInt16 = 1 << 3
    static let strongEncryption: UInt16 = 1 << 6
    static let utf8Names: UInt16 = 1 << 11
}

/// The two methods a gallery may use.
public enum CompressionMethod: UInt16, Sendable {
    /// Method 0: the bytes as they are. Writers store `mimetype`, `thumbnail.png` and every
    /// image blob this way (section 4.7): image data of every type the format takes is already compressed.
    case stored = 0
    /// Method 8: a raw DEFLATE stream (RFC 1951). Writers use it for `manifest.json` only;
    /// readers accept it on any entry but `mimetype`.
    case deflated = 8
}

enum ZipLimit {
    static let max16: UInt64 = 0xFFFF
    static let max32: UInt64 = 0xFFFF_FFFF
    static let zip64ExtraID: UInt16 = 0x0001
}

struct LocalFileHeader {
    static let size = 30
    var versionNeeded: UInt16
    var flags: UInt16
    var method: UInt16
    var dosTime: UInt16
    var dosDate: UInt16
    var crc32: UInt32
    var compressedSize: UInt32
    var uncompressedSize: UInt32
    var nameLength: UInt16
    var extraLength: UInt16

    init(versionNeeded: UInt16, flags: UInt16, method: UInt16, dosTime: UInt16, dosDate: UInt16, crc32: UInt32,
         compressedSize: UInt32, uncompressedSize: UInt32, nameLength: UInt16, extraLength: UInt16) {
        self.versionNeeded = versionNeeded
        self.flags = flags
        self.method = method
        self.dosTime = dosTime
        self.dosDate = dosDate
        self.crc32 = crc32
        self.compressedSize = compressedSize
        self.uncompressedSize = uncompressedSize
        self.nameLength = nameLength
        self.extraLength = extraLength
    }

    /// Parses the fixed part; nil when the signature is wrong.
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= Self.size else { return nil }
        var r = LittleEndianReader(bytes)
        guard r.u32() == ZipSignature.localFileHeader else { return nil }
        versionNeeded = r.u16()
        flags = r.u16()
        method = r.u16()
        dosTime = r.u16()
        dosDate = r.u16()
        crc32 = r.u32()
        compressedSize = r.u32()
        uncompressedSize = r.u32()
        nameLength = r.u16()
        extraLength = r.u16()
    }

    func serialize(into out: inout [UInt8]) {
        out.appendLE(ZipSignature.localFileHeader)
        out.appendLE(versionNeeded)
        out.appendLE(flags)
        out.appendLE(method)
        out.appendLE(dosTime)
        out.appendLE(dosDate)
        out.appendLE(crc32)
        out.appendLE(compressedSize)
        out.appendLE(uncompressedSize)
        out.appendLE(nameLength)
        out.appendLE(extraLength)
    }
}

struct CentralFileHeader {
    static let size = 46
    var versionMadeBy: UInt16
    var versionNeeded: UInt16
    var flags: UInt16
    var method: UInt16
    var dosTime: UInt16
    var dosDate: UInt16
    var crc32: UInt32
    var compressedSize: UInt32
    var uncompressedSize: UInt32
    var nameLength: UInt16
    var extraLength: UInt16
    var commentLength: UInt16
    var diskNumberStart: UInt16
    var internalAttributes: UInt16
    var externalAttributes: UInt32
    var localHeaderOffset: UInt32

    init(versionMadeBy: UInt16, versionNeeded: UInt16, flags: UInt16, method: UInt16, dosTime: UInt16,
         dosDate: UInt16, crc32: UInt32, compressedSize: UInt32, uncompressedSize: UInt32, nameLength: UInt16,
         extraLength: UInt16, commentLength: UInt16, diskNumberStart: UInt16, internalAttributes: UInt16,
         externalAttributes: UInt32, localHeaderOffset: UInt32) {
        self.versionMadeBy = versionMadeBy
        self.versionNeeded = versionNeeded
        self.flags = flags
        self.method = method
        self.dosTime = dosTime
        self.dosDate = dosDate
        self.crc32 = crc32
        self.compressedSize = compressedSize
        self.uncompressedSize = uncompressedSize
        self.nameLength = nameLength
        self.extraLength = extraLength
        self.commentLength = commentLength
        self.diskNumberStart = diskNumberStart
        self.internalAttributes = internalAttributes
        self.externalAttributes = externalAttributes
        self.localHeaderOffset = localHeaderOffset
    }

    init?(_ r: inout LittleEndianReader) {
        guard r.remaining >= Self.size, r.u32() == ZipSignature.centralFileHeader else { return nil }
        versionMadeBy = r.u16()
        versionNeeded = r.u16()
        flags = r.u16()
        method = r.u16()
        dosTime = r.u16()
        dosDate = r.u16()
        crc32 = r.u32()
        compressedSize = r.u32()
        uncompressedSize = r.u32()
        nameLength = r.u16()
        extraLength = r.u16()
        commentLength = r.u16()
        diskNumberStart = r.u16()
        internalAttributes = r.u16()
        externalAttributes = r.u32()
        localHeaderOffset = r.u32()
    }

    func serialize(into out: inout [UInt8]) {
        out.appendLE(ZipSignature.centralFileHeader)
        out.appendLE(versionMadeBy)
        out.appendLE(versionNeeded)
        out.appendLE(flags)
        out.appendLE(method)
        out.appendLE(dosTime)
        out.appendLE(dosDate)
        out.appendLE(crc32)
        out.appendLE(compressedSize)
        out.appendLE(uncompressedSize)
        out.appendLE(nameLength)
        out.appendLE(extraLength)
        out.appendLE(commentLength)
        out.appendLE(diskNumberStart)
        out.appendLE(internalAttributes)
        out.appendLE(externalAttributes)
        out.appendLE(localHeaderOffset)
    }
}

struct EndOfCentralDirectoryRecord {
    static let size = 22
    var diskNumber: UInt16
    var centralDirectoryDisk: UInt16
    var entriesOnDisk: UInt16
    var totalEntries: UInt16
    var centralDirectorySize: UInt32
    var centralDirectoryOffset: UInt32
    var commentLength: UInt16

    init(diskNumber: UInt16 = 0, centralDirectoryDisk: UInt16 = 0, entriesOnDisk: UInt16, totalEntries: UInt16,
         centralDirectorySize: UInt32, centralDirectoryOffset: UInt32, commentLength: UInt16 = 0) {
        self.diskNumber = diskNumber
        self.centralDirectoryDisk = centralDirectoryDisk
        self.entriesOnDisk = entriesOnDisk
        self.totalEntries = totalEntries
        self.centralDirectorySize = centralDirectorySize
        self.centralDirectoryOffset = centralDirectoryOffset
        self.commentLength = commentLength
    }

    init(_ bytes: UnsafeRawBufferPointer) {
        var r = LittleEndianReader(bytes, at: 4)
        diskNumber = r.u16()
        centralDirectoryDisk = r.u16()
        entriesOnDisk = r.u16()
        totalEntries = r.u16()
        centralDirectorySize = r.u32()
        centralDirectoryOffset = r.u32()
        commentLength = r.u16()
    }

    func serialize(into out: inout [UInt8]) {
        out.appendLE(ZipSignature.endOfCentralDirectory)
        out.appendLE(diskNumber)
        out.appendLE(centralDirectoryDisk)
        out.appendLE(entriesOnDisk)
        out.appendLE(totalEntries)
        out.appendLE(centralDirectorySize)
        out.appendLE(centralDirectoryOffset)
        out.appendLE(commentLength)
    }
}

struct Zip64EndOfCentralDirectoryRecord {
    /// The record's size field: the bytes after the first 12 (44, or more with an extensible
    /// data sector).
    var recordSize: UInt64 = UInt64(Self.size - 12)
    static let size = 56
    var versionMadeBy: UInt16
    var versionNeeded: UInt16
    var diskNumber: UInt32
    var centralDirectoryDisk: UInt32
    var entriesOnDisk: UInt64
    var totalEntries: UInt64
    var centralDirectorySize: UInt64
    var centralDirectoryOffset: UInt64

    init(versionMadeBy: UInt16, versionNeeded: UInt16, entries: UInt64, centralDirectorySize: UInt64,
         centralDirectoryOffset: UInt64) {
        self.versionMadeBy = versionMadeBy
        self.versionNeeded = versionNeeded
        diskNumber = 0
        centralDirectoryDisk = 0
        entriesOnDisk = entries
        totalEntries = entries
        self.centralDirectorySize = centralDirectorySize
        self.centralDirectoryOffset = centralDirectoryOffset
    }

    /// Parses the record; nil when the signature or the record size is wrong.
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= Self.size else { return nil }
        var r = LittleEndianReader(bytes)
        guard r.u32() == ZipSignature.zip64EndOfCentralDirectory else { return nil }
        recordSize = r.u64()
        guard recordSize >= UInt64(Self.size - 12) else { return nil }
        versionMadeBy = r.u16()
        versionNeeded = r.u16()
        diskNumber = r.u32()
        centralDirectoryDisk = r.u32()
        entriesOnDisk = r.u64()
        totalEntries = r.u64()
        centralDirectorySize = r.u64()
        centralDirectoryOffset = r.u64()
    }

    func serialize(into out: inout [UInt8]) {
        out.appendLE(ZipSignature.zip64EndOfCentralDirectory)
        out.appendLE(UInt64(Self.size - 12))
        out.appendLE(versionMadeBy)
        out.appendLE(versionNeeded)
        out.appendLE(diskNumber)
        out.appendLE(centralDirectoryDisk)
        out.appendLE(entriesOnDisk)
        out.appendLE(totalEntries)
        out.appendLE(centralDirectorySize)
        out.appendLE(centralDirectoryOffset)
    }
}

struct Zip64Locator {
    static let size = 20
    var recordDisk: UInt32
    var recordOffset: UInt64
    var totalDisks: UInt32

    init(recordOffset: UInt64) {
        recordDisk = 0
        self.recordOffset = recordOffset
        totalDisks = 1
    }

    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= Self.size else { return nil }
        var r = LittleEndianReader(bytes)
        guard r.u32() == ZipSignature.zip64Locator else { return nil }
        recordDisk = r.u32()
        recordOffset = r.u64()
        totalDisks = r.u32()
    }

    func serialize(into out: inout [UInt8]) {
        out.appendLE(ZipSignature.zip64Locator)
        out.appendLE(recordDisk)
        out.appendLE(recordOffset)
        out.appendLE(totalDisks)
    }
}

/// MS-DOS date and time, as ZIP headers store them (local time by convention; UTC here).
struct DOSDateTime: Equatable {
    var time: UInt16
    var date: UInt16

    init(_ timestamp: Timestamp) {
        var f = timestamp.utcFields
        if f.year < 1980 { f = (1980, 1, 1, 0, 0, 0) }
        if f.year > 2107 { f = (2107, 12, 31, 23, 59, 58) }
        time = UInt16(f.hour << 11 | f.minute << 5 | f.second / 2)
        date = UInt16((f.year - 1980) << 9 | f.month << 5 | f.day)
    }
}
