import GalleryFormat
import GallerySystem
import SystemPackage

/// One image of a seed gallery: where it was fetched from and, when the app recorded it, its
/// width divided by its height.
public struct SeedImage: Sendable, Hashable {
    /// The URL as the app encoded it; what the image's `source` becomes.
    public var url: String
    /// Width / height of the image as the app showed it (after EXIF orientation); nil when absent.
    public var aspectRatio: Double?
    /// Where it sits in the input, as a JSON pointer ("/galleries/0/images/2"), for messages.
    public var pointer: String

    /// An image fetched from `url`, with the aspect ratio the app recorded, if any.
    public init(url: String, aspectRatio: Double? = nil, pointer: String = "") {
        self.url = url
        self.aspectRatio = aspectRatio
        self.pointer = pointer
    }
}

/// One gallery of the seed apps' JSON: a title and its images in gallery order.
public struct SeedGallery: Sendable, Hashable {
    /// The `title` member, or a name made from the input's file name when it has none.
    public var title: String
    /// Whether `title` came from the input (false: made from the file name).
    public var hasTitle: Bool
    /// The images in gallery order, each to be fetched from its URL.
    public var images: [SeedImage]
    /// Where it sits in the input, as a JSON pointer ("" for a single gallery, "/galleries/3"
    /// or "/3" in a store).
    public var pointer: String

    /// A gallery with this title and these images.
    public init(title: String, hasTitle: Bool = true, images: [SeedImage], pointer: String = "") {
        self.title = title
        self.hasTitle = hasTitle
        self.images = images
        self.pointer = pointer
    }
}

/// The seed apps' Codable JSON (`Specs/seed-json.md`): one gallery, or a store of many.
/// Decoding is pure and bounded: the input is hostile until every rule has been checked, and
/// each refusal names the JSON pointer of the value at fault.
public enum SeedJSON {
    /// How the input holds its galleries.
    public enum Form: String, Sendable, Hashable {
        /// One gallery object: the output is one `.imagegallery` file.
        case gallery
        /// A store: an array of galleries, or an object with a `galleries` array. The output is
        /// a folder with one `.imagegallery` per gallery.
        case store
    }

    /// A whole seed JSON input: its galleries and whether it was one gallery or a store, which
    /// decides whether the output is a file or a folder of them.
    public struct Document: Sendable, Hashable {
        /// One gallery or a store.
        public var form: Form
        /// The galleries in input order (one for the gallery form).
        public var galleries: [SeedGallery]

        /// A document of `form` holding `galleries`.
        public init(form: Form, galleries: [SeedGallery]) {
            self.form = form
            self.galleries = galleries
        }
    }

    /// Bounds on untrusted input (`Specs/seed-json.md`, "Limits").
    public struct Limits: Sendable, Hashable {
        /// The largest input read, in bytes; a larger one is refused before it is parsed.
        public var maxBytes: Int = 64 << 20
        /// Nesting of arrays and objects; the seed forms need 5 (store, galleries, gallery,
        /// images, image), unknown members may add some.
        public var maxDepth: Int = 64
        /// Galleries in one store: each becomes a file.
        public var maxGalleries: Int = 10_000
        /// Images in one gallery, and in all galleries of a store together: one fetch batch.
        public var maxImages: Int = 100_000
        /// Scalars of a title, as the manifest allows.
        public var maxTitleScalars: Int = 1000

        /// The limits `Specs/seed-json.md` sets.
        public init() {}

        /// The limits `Specs/seed-json.md` sets, as the decoding functions take by default.
        public static let `default` = Limits()
    }

    /// The galleries of a seed JSON document, in input order.
    public static func decode(_ bytes: [UInt8], path: String, limits: Limits = .default) throws -> [SeedGallery] {
        try decodeDocument(bytes, path: path, limits: limits).galleries
    }

    /// The galleries and the form that held them.
    public static func decodeDocument(_ bytes: [UInt8], path: String, limits: Limits = .default) throws -> Document {
        guard bytes.count <= limits.maxBytes else {
            throw ConversionError(path, "is \(bytes.count) bytes; seed JSON larger than \(limits.maxBytes) bytes is refused")
        }
        var decoder = try SeedJSONDecoder(bytes: bytes, path: path, limits: limits)
        return try decoder.document(defaultTitle: defaultTitle(for: path))
    }

    /// Reads and decodes a file, refusing one larger than the limit before reading it.
    public static func read(path: String, limits: Limits = .default) throws -> Document {
        // A missing or unreadable file is a FileSystemError, which names the path itself.
        let file = try GalleryFile.openForReading(FilePath(path))
        let size = try file.size
        guard size <= UInt64(limits.maxBytes) else {
            throw ConversionError(path, "is \(size) bytes; seed JSON larger than \(limits.maxBytes) bytes is refused")
        }
        let bytes = try file.readUninitialized(at: 0, count: Int(size))
        guard bytes.count == Int(size) else { throw ConversionError(path, "changed while it was read") }
        return try decodeDocument(bytes, path: path, limits: limits)
    }

    /// The input's file name without a `.json` extension: the title of a gallery that has
    /// none, as the seed's document took its name from its file (`localizedName`).
    public static func defaultTitle(for path: String) -> String {
        var name = GalleryFileSystem.fileName(of: path)
        if name.lowercased().hasSuffix(".json"), name.count > 5 { name.removeLast(5) }
        return name
    }

    /// Whether an image of `width` × `height` pixels has the recorded aspect ratio, within
    /// `tolerance` (relative). The ratio is of the image as shown, after EXIF orientation, which
    /// the header sizes do not apply: a ratio that fits the image turned a quarter agrees too.
    public static func aspectRatio(_ ratio: Double, agreesWith width: Int, _ height: Int, tolerance: Double = 0.01) -> Bool {
        guard width > 0, height > 0, ratio.isFinite, ratio > 0 else { return false }
        let stored = Double(width) / Double(height)
        return abs(ratio - stored) <= tolerance * stored || abs(ratio - 1 / stored) <= tolerance / stored
    }
}

extension SeedJSON {
    /// The file names of a store's galleries in its output folder, in order: each title made
    /// safe as one path component, and made unique by " 2", " 3"… (compared ignoring case, so
    /// that a case-insensitive file system keeps them apart too).
    public static func fileNames(for titles: [String], extension ext: String = "imagegallery") -> [String] {
        var taken = Set<String>()
        return titles.enumerated().map { index, title in
            let stem = safeStem(title) ?? "Gallery \(index + 1)"
            var candidate = stem
            var number = 1
            while !taken.insert(candidate.lowercased()).inserted {
                number += 1
                candidate = "\(stem) \(number)"
            }
            return candidate + "." + ext
        }
    }

    /// A title as a file name's stem: separators, NUL and control characters become "_",
    /// surrounding spaces and leading dots go (no hidden files, no "." or ".."), and the
    /// result is cut to 200 bytes on a character boundary, leaving room for " 9999.imagegallery"
    /// within the 255 bytes a name may have. Nil when nothing is left.
    static func safeStem(_ title: String) -> String? {
        var trimmed = title.drop { $0.isWhitespace || $0 == "." }
        while let last = trimmed.last, last.isWhitespace { trimmed.removeLast() }
        let text = String(String.UnicodeScalarView(trimmed.unicodeScalars.map { scalar in
            let value = scalar.value
            let unsafe = value < 0x20 || value == 0x7F || (0x80 ... 0x9F).contains(value) || scalar == "/" || scalar == "\\"
            return unsafe ? "_" : scalar
        }))
        var cut = ""
        for character in text {
            guard cut.utf8.count + String(character).utf8.count <= 200 else { break }
            cut.append(character)
        }
        while let last = cut.last, last.isWhitespace { cut.removeLast() }
        return cut.isEmpty ? nil : cut
    }
}
