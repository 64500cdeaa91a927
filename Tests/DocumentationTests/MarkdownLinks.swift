import Foundation

/// The links and heading anchors of a Markdown file, as GitHub renders them.
struct MarkdownFile {
    /// One `[text](target)` link outside code.
    struct Link: Equatable {
        var target: String
        var line: Int
    }

    let path: String
    let links: [Link]
    let anchors: Set<String>

    init(path: String) throws {
        self.path = path
        let text = try Repository.text(path)
        var links: [Link] = []
        var anchors: Set<String> = []
        var seen: [String: Int] = [:]
        var inFence = false
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(rawLine)
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inFence.toggle()
                continue
            }
            if inFence { continue }
            if let heading = line.firstMatch(of: #/^#{1,6}\s+(.*?)\s*#*\s*$/#) {
                let slug = Self.slug(String(heading.1))
                let count = seen[slug, default: 0]
                anchors.insert(count == 0 ? slug : "\(slug)-\(count)")
                seen[slug] = count + 1
            }
            let outsideCode = line.replacing(#/`[^`]*`/#, with: "")
            for match in outsideCode.matches(of: #/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/#) {
                links.append(Link(target: String(match.1), line: index + 1))
            }
        }
        self.links = links
        self.anchors = anchors
    }

    /// GitHub's anchor for a heading: the rendered text (code spans and links reduced to their
    /// text), lowercased, without punctuation other than `-` and `_`, spaces turned into `-`.
    static func slug(_ heading: String) -> String {
        var text = heading.replacing(#/\[([^\]]*)\]\([^)]*\)/#) { String($0.1) }
        text = text.replacingOccurrences(of: "`", with: "")
        text = text.replacingOccurrences(of: "*", with: "")
        let kept = text.lowercased().unicodeScalars.filter { scalar in
            scalar == "-" || scalar == "_" || scalar == " " || CharacterSet.alphanumerics.contains(scalar)
        }
        return String(String.UnicodeScalarView(kept)).replacingOccurrences(of: " ", with: "-")
    }
}
