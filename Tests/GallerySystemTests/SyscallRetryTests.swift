@testable import GallerySystem
import SystemPackage
import Testing

/// EINTR is retried in one place, `Syscalls.retrying`: a call interrupted by a signal is made
/// again; any other failure comes back at once, as a typed `Errno`.
@Suite("System call retries")
struct SyscallRetryTests {
    @Test func anInterruptedCallIsMadeAgainUntilItSucceeds() {
        var calls = 0
        let result = Syscalls.retrying({ () -> Int32 in
            calls += 1
            return calls < 3 ? -1 : 7
        }, errnoAfterFailure: { .interrupted })
        #expect(calls == 3)
        #expect((try? result.get()) == 7)
    }

    @Test func anyOtherFailureIsReturnedAtOnceAsItsErrno() {
        var calls = 0
        let result = Syscalls.retrying({ () -> Int in
            calls += 1
            return -1
        }, errnoAfterFailure: { .noSpace })
        #expect(calls == 1)
        #expect(throws: Errno.noSpace) { try result.get() }
    }

    @Test func aRealFailureCarriesTheErrnoTheKernelSet() {
        let result = Syscalls.unlink("/nonexistent-imagegallery-folder/file")
        #expect(throws: Errno.noSuchFileOrDirectory) { try result.get() }
    }
}
