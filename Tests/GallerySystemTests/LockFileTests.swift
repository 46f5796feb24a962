import Foundation
import GallerySystem
import GalleryTestSupport
import SystemPackage
import Testing

/// The flock that DocumentLock holds: one holder at a time, released when closed.
@Suite("Lock files")
struct LockFileTests {
    @Test func aSecondHolderWaitsUntilTheFirstLetsGo() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file(".doc.lock")
        let first = try LockFile.open(FilePath(path))
        #expect(first.tryLock())
        #expect(first.isStillNamed())
        try first.writeRecord(Array("me".utf8))
        let second = try LockFile.open(FilePath(path))
        #expect(!second.tryLock(), "flock is per open file: a second open must not get it")
        #expect(second.record() == Array("me".utf8))
        first.close()
        #expect(second.tryLock())
    }

    /// A record written over a longer one leaves no tail of it: the file is cut after the write.
    @Test func aShorterRecordReplacesALongerOneWhole() throws {
        let directory = try TemporaryDirectory()
        let file = try LockFile.open(FilePath(directory.file(".doc.lock")))
        #expect(file.tryLock())
        try file.writeRecord(Array("a much longer record".utf8))
        try file.writeRecord(Array("short".utf8))
        #expect(file.record() == Array("short".utf8))
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.file(".doc.lock"))) == Data("short".utf8))
    }

    @Test func aRemovedLockFileIsNoLongerNamed() throws {
        let directory = try TemporaryDirectory()
        let file = try LockFile.open(FilePath(directory.file(".doc.lock")))
        #expect(file.tryLock())
        file.removeName()
        #expect(!file.isStillNamed())
        #expect(LockFile.openExisting(FilePath(directory.file(".doc.lock"))) == nil)
    }

    @Test func aProcessIDIsWrittenAsABareNumber() throws {
        let data = try JSONEncoder().encode([ProcessID(rawValue: 42)])
        #expect(String(decoding: data, as: UTF8.self) == "[42]")
        #expect(try JSONDecoder().decode([ProcessID].self, from: data) == [ProcessID(rawValue: 42)])
        #expect(ProcessID.current.rawValue == ProcessInfo.processInfo.processIdentifier)
    }
}
