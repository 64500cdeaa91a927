import Foundation

/// The repository these tests read, found from this file's own path, and the text of its files.
enum Repository {
    /// The repository's root folder (this file is `Tests/DocumentationTests/Repository.swift`).
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    static func url(_ relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }

    static func text(_ relativePath: String) throws -> String {
        try String(contentsOf: url(relativePath), encoding: .utf8)
    }

    /// Paths, relative to the root, of the files under `folder` whose names end in `suffix`,
    /// sorted.
    static func files(under folder: String, endingIn suffix: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: url(folder).path) else { return [] }
        return walker.compactMap { $0 as? String }
            .filter { $0.hasSuffix(suffix) }
            .map { folder + "/" + $0 }
            .sorted()
    }

    /// Paths of the entries directly inside `folder` (files and folders), sorted.
    static func entries(of folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url(folder).path)) ?? []
        return names.map { folder + "/" + $0 }.sorted()
    }

    static func exists(_ relativePath: String) -> Bool {
        FileManager.default.fileExists(atPath: url(relativePath).path)
    }
}
