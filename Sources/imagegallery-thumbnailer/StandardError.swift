import Glibc

/// Lines for the person or the log that reads standard error, written straight to descriptor 2.
enum StandardError {
    static func write(_ line: String) {
        var text = line + "\n"
        text.withUTF8 { bytes in
            var rest = UnsafeRawBufferPointer(bytes)
            while !rest.isEmpty {
                let written = Glibc.write(2, rest.baseAddress, rest.count)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                rest = UnsafeRawBufferPointer(rebasing: rest[written...])
            }
        }
    }
}
