extension QRCode {
    /// An SVG document: one path of unit squares on a white background, with a quiet zone of
    /// `border` modules (the standard asks for 4).
    public func svg(border: Int = 4) -> String {
        let side = size + border * 2
        var path = ""
        for y in 0..<size {
            for x in 0..<size where self[x, y] {
                path += "M\(x + border),\(y + border)h1v1h-1z"
            }
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" version="1.1" viewBox="0 0 \(side) \(side)" \
            stroke="none"><rect width="100%" height="100%" fill="#FFFFFF"/><path d="\(path)" fill="#000000"/></svg>
            """
    }

    /// Text for a terminal: two module rows per line in Unicode half blocks, with a quiet zone.
    ///
    /// - Parameter darkBackground: Whether the terminal draws light text on a dark background;
    ///   then light modules are drawn as blocks, so a camera sees dark modules on light.
    public func halfBlocks(border: Int = 2, darkBackground: Bool = true) -> String {
        func dark(_ x: Int, _ y: Int) -> Bool {
            guard (0..<size).contains(x), (0..<size).contains(y) else { return false }
            return self[x, y]
        }
        var lines: [String] = []
        for y in stride(from: -border, to: size + border, by: 2) {
            var line = ""
            for x in -border..<(size + border) {
                var (top, bottom) = (dark(x, y), dark(x, y + 1))
                if darkBackground { (top, bottom) = (!top, !bottom) }
                switch (top, bottom) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
