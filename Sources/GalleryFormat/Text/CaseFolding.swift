extension String {
    /// Full Unicode case folding (CaseFolding.txt, statuses C and F), up to canonical
    /// equivalence, which is how Swift compares strings: `ß` is `ss`, `ﬁ` is `fi`, final `ς` is
    /// `σ`, and lowercase Cherokee folds to uppercase. Built on the standard library's case
    /// mappings, because Foundation's `folding(options:locale:)` needs ICU, which the reading
    /// modules leave out (the thumbnailer links them), and folds Cherokee the other way.
    package var caseFolded: String {
        var folded = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            guard scalar.properties.changesWhenCaseFolded else {
                folded.append(scalar)
                continue
            }
            // Lowering after raising reaches the folded form of every character whose folding
            // is not its lowercase (ß, ﬁ, ς, ẞ, the long s); the few whose folded form is
            // uppercase (Cherokee) still change when folded, and are raised.
            for mapped in String(scalar).lowercased().uppercased().lowercased().unicodeScalars {
                if mapped.properties.changesWhenCaseFolded {
                    folded.append(contentsOf: String(mapped).uppercased().unicodeScalars)
                } else {
                    folded.append(mapped)
                }
            }
        }
        return String(folded)
    }
}
