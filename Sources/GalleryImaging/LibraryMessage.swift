import GalleryFormat

/// A C library's message as we pass it on: one line, for a message with a newline (libheif
/// writes some) would split one finding of `validate` over two and break the formats that
/// keep one finding a line. Every decoder's library text goes through here.
func libraryMessage(_ text: UnsafePointer<CChar>) -> String {
    String(cString: text).foldingControlCharacters
}
