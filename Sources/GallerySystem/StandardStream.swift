import SystemPackage

/// The process's standard output and standard error, written straight to descriptors 1 and 2,
/// unbuffered as Foundation's `FileHandle` writes them, without bringing Foundation (and with
/// it ICU) into the start of every command.
package enum StandardStream: Sendable {
    case output, error

    private var descriptor: FileDescriptor { self == .output ? .standardOutput : .standardError }

    /// Writes all of `bytes`. A stream that cannot take them (a closed pipe, a full disk) is
    /// not worth a failure of its own: what was written is all the reader will see.
    package func write(_ bytes: UnsafeRawBufferPointer) {
        _ = try? descriptor.writeAll(bytes)
    }

    package func write(_ text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    package func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { write($0) }
    }
}
