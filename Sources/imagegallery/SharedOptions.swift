import ArgumentParser

/// The gallery a reading subcommand works on.
struct GalleryFileArgument: ParsableArguments {
    @Argument(help: "The .imagegallery file.")
    var file: String
}

/// `--json`, for every subcommand a script may read.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print one JSON document for scripts instead of text.")
    var json = false
}
