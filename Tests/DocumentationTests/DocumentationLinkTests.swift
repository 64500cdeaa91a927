import Foundation
import Testing

/// Every relative link between the documentation pages, and every `#anchor`, resolves.
@Suite("Links between documentation pages resolve")
struct DocumentationLinkTests {
    /// The pages whose links are checked: the README, the guides in `docs/`, the benchmarks'
    /// log, AppleCheck's README and the READMEs of the examples and integrations.
    static func pages() -> [String] {
        var pages = ["README.md", "Benchmarks/README.md", "AppleCheck/README.md"]
        pages += Repository.entries(of: "docs").filter { $0.hasSuffix(".md") }
        for folder in ["Examples", "Integrations"] {
            pages += Repository.entries(of: folder).map { $0 + "/README.md" }.filter(Repository.exists)
        }
        return pages
    }

    @Test func everyRelativeLinkAndAnchorResolves() throws {
        var broken: [String] = []
        var checked = 0
        var anchorsChecked = 0
        var parsed: [String: MarkdownFile] = [:]
        func file(_ path: String) throws -> MarkdownFile {
            if let known = parsed[path] { return known }
            let file = try MarkdownFile(path: path)
            parsed[path] = file
            return file
        }
        for page in Self.pages() {
            let source = try file(page)
            for link in source.links {
                let target = link.target
                if target.contains("://") || target.hasPrefix("mailto:") { continue }
                checked += 1
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let pathPart = String(parts[0]).removingPercentEncoding ?? String(parts[0])
                let anchor = parts.count > 1 ? String(parts[1]) : nil
                let resolved = pathPart.isEmpty ? page : Self.resolve(pathPart, from: page)
                guard let resolved, Repository.exists(resolved) else {
                    broken.append("\(page):\(link.line): \(target) (no such file)")
                    continue
                }
                guard let anchor, !anchor.isEmpty else { continue }
                guard resolved.hasSuffix(".md") else {
                    broken.append("\(page):\(link.line): \(target) (an anchor into a file that is not Markdown)")
                    continue
                }
                anchorsChecked += 1
                if !(try file(resolved)).anchors.contains(anchor.lowercased()) {
                    broken.append("\(page):\(link.line): \(target) (no heading \(resolved)#\(anchor))")
                }
            }
        }
        #expect(broken.isEmpty, "Broken links:\n\(broken.joined(separator: "\n"))")
        #expect(checked > 50 && anchorsChecked > 10, "only \(checked) links and \(anchorsChecked) anchors checked")
    }

    @Test func everyGuideIsReachableFromTheReadme() throws {
        let readme = try MarkdownFile(path: "README.md")
        let targets = Set(readme.links.map { String($0.target.split(separator: "#")[0]) })
        for page in Repository.entries(of: "docs").filter({ $0.hasSuffix(".md") }) {
            #expect(targets.contains(page), "README.md does not link \(page)")
        }
        #expect(targets.contains("Benchmarks/README.md"))
    }

    @Test func slugsFollowGitHub() {
        #expect(
            MarkdownFile.slug("Passkeys in an iOS app: the server side") == "passkeys-in-an-ios-app-the-server-side"
        )
        #expect(MarkdownFile.slug("Apple's notifications") == "apples-notifications")
        #expect(MarkdownFile.slug("`GET /user` at half") == "get-user-at-half")
        #expect(MarkdownFile.slug("Growth that stops: the soak") == "growth-that-stops-the-soak")
    }

    /// `relative` as seen from the page `page`, normalised (`..` and `.` removed), relative to
    /// the repository root; nil when it leaves the repository.
    static func resolve(_ relative: String, from page: String) -> String? {
        var parts = page.split(separator: "/").dropLast().map(String.init)
        if relative.hasPrefix("/") { parts = [] }
        for component in relative.split(separator: "/") {
            switch component {
            case ".": continue
            case "..":
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            default: parts.append(String(component))
            }
        }
        return parts.joined(separator: "/")
    }
}
