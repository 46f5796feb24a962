import GalleryFormat
import GallerySystem
import func Glibc.strsignal

// imagegallery-thumbnailer: the freedesktop thumbnailer for .imagegallery files, a program of
// its own so that what runs unasked on every downloaded file links only the container reader,
// the decoders and the PNG encoder, and shuts itself in before reading (ConfinedThumbnail).

func fail(_ message: String, _ status: Int32) -> Never {
    StandardStream.error.write("imagegallery-thumbnailer: \(message)\n")
    CurrentProcess.exit(status)
}

switch ThumbnailerLine(Array(CommandLine.arguments.dropFirst())) {
case .version:
    print("imagegallery-thumbnailer \(GalleryVersion.string)")
case .help:
    print(ThumbnailerLine.usage)
case .invalid(let problem):
    fail("\(problem)\n\(ThumbnailerLine.usage)", 64)
case .probe(let input, let output):
    // Each wall seen on its own: first Landlock with opening still allowed by the filter, then
    // the second filter, as before a decoder runs.
    func attempts(_ stage: String) {
        for (attempt, outcome) in Confinement.probe(readable: "/etc/passwd", creatable: "/tmp/imagegallery-probe-\(ProcessID.current)",
                                                    port: 9, program: "/bin/true") {
            print("\(stage): \(attempt): \(outcome)")
        }
    }
    do {
        _ = try ConfinedThumbnail(size: 1, input: input, output: output).confine()
        attempts("files")
        try Confinement.restrictCalls(allowingOpen: false, naming: input)
        attempts("calls")
    } catch {
        fail("cannot confine: \(error)", 71)
    }
case .thumbnail(let size, let input, let output):
    do {
        try ConfinedThumbnail(size: size, input: input, output: output).run()
    } catch {
        switch error {
        case .input(let error): fail("\(error)", 66)
        case .output(let error): fail("\(error)", 73)
        case .confinement(let error): fail("\(error); nothing was read", 71)
        case .data(let error): fail("\(error)", 65)
        case .childEnded(.exited(let status)): CurrentProcess.exit(status)
        case .childEnded(.signalled(let signal)):
            fail("\(input): the confined thumbnailer was stopped by signal \(signal) (\(String(cString: strsignal(signal))))", 65)
        }
    }
}
