/// What `imagegallery-thumbnailer` was asked, read by hand: the desktop runs it for every gallery
/// it shows, and an argument parser's start-up cost more than serving an embedded thumbnail.
enum ThumbnailerLine: Equatable {
    case thumbnail(size: Int, input: String, output: String)
    /// Hidden, for the tests: confine as for a thumbnail, then try what must be refused.
    case probe(input: String, output: String)
    case version
    case help
    case invalid(String)

    static let sizes = 1 ... 4096
    static let defaultSize = 256

    static let usage = """
        usage: imagegallery-thumbnailer [-s SIZE] INPUT OUTPUT

        Writes a PNG thumbnail of the .imagegallery file INPUT to OUTPUT, SIZE pixels (1 to 4096,
        default 256) on its long side: the freedesktop thumbnailer, run as -s %s %i %o. The PNG is
        uncompressed, since the desktop decodes it at once and keeps its own copy (imagegallery
        thumbnail writes the same pixels compressed). It shuts itself in before reading INPUT: it
        can read only INPUT, write only OUTPUT, and make no connection and start no program
        (Landlock, seccomp, resource limits).

        Exit status: 0 written; 64 wrong arguments; 65 INPUT is not a gallery or cannot be
        thumbnailed; 66 INPUT cannot be opened; 71 the confinement could not be set up (nothing
        was read); 73 OUTPUT cannot be written.
        """

    init(_ arguments: [String]) {
        var size = Self.defaultSize
        var rest = arguments[...]
        switch rest.first {
        case "--version": self = rest.count == 1 ? .version : .invalid("--version takes no arguments"); return
        case "--help", "-h": self = .help; return
        case "--probe-confinement":
            guard rest.count == 3 else { self = .invalid("--probe-confinement takes INPUT and OUTPUT"); return }
            self = .probe(input: rest[rest.startIndex + 1], output: rest[rest.startIndex + 2])
            return
        case "-s":
            guard rest.count >= 2, let value = Int(rest[rest.startIndex + 1]), rest[rest.startIndex + 1].first != "+",
                  Self.sizes.contains(value) else {
                self = .invalid("-s takes a size from 1 to 4096")
                return
            }
            size = value
            rest = rest.dropFirst(2)
        default: break
        }
        guard rest.count == 2 else {
            self = .invalid(rest.isEmpty ? "INPUT and OUTPUT are missing" : "expected INPUT and OUTPUT, got \(rest.count) arguments")
            return
        }
        if let option = rest.first(where: { $0.hasPrefix("-") && $0 != "-" }) {
            self = .invalid("unknown option \(option) (a file whose name starts with - can be named ./\(option))")
            return
        }
        self = .thumbnail(size: size, input: rest[rest.startIndex], output: rest[rest.startIndex + 1])
    }
}
