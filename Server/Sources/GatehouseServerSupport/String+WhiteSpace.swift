extension String {
    /// The text without the white space around it: the scalars with Unicode's `White_Space`
    /// property, as `Server/openapi.yaml` states it for addresses and names. Unlike Foundation's
    /// `whitespacesAndNewlines`, which on Linux also holds U+200B, it is the same on every platform.
    package var trimmingWhiteSpace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
