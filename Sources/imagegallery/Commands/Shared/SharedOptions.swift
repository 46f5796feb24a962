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

/// How `create` and `convert` may write their output: one definition of the two flags and of
/// the rule between them.
struct WriteOptions: ParsableArguments {
    @Flag(help: "Replace the output if it exists.")
    var force = false

    @Flag(help: ArgumentHelp(
        "Skip the flush to disk before a gallery or comic file is renamed into place.",
        discussion: "Faster on large galleries, like zip or tar, which never flush; but a power cut soon after "
            + "may leave the new file incomplete. Not with --force."))
    var noSync = false

    func validate() throws {
        // Replacing without a flush could lose the old file and the new one in a crash.
        if noSync, force {
            throw ValidationError("--no-sync cannot be combined with --force: a replaced file must be flushed first")
        }
    }
}
