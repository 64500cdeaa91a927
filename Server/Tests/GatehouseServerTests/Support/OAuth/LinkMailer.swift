import Foundation
import GatehouseFlows
import GatehouseServer
import Synchronization

/// A mailer that keeps the link of every message (and, with a file, appends "<address> <link>"
/// lines to it for a Python script to read), so a test opens a mailed link as its reader would.
final class LinkMailer: Mailer {
    let file: URL?
    private let links = Mutex<[(to: String, link: String)]>([])

    init(file: URL? = nil) {
        self.file = file
        if let file { _ = FileManager.default.createFile(atPath: file.path, contents: Data()) }
    }

    func send(_ mail: Mail) async throws {
        let link = Self.link(in: mail.body) ?? "-"
        try links.withLock { links in
            links.append((mail.to, link))
            guard let file else { return }
            let handle = try FileHandle(forWritingTo: file)
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("\(mail.to) \(link)\n".utf8))
        }
    }

    /// The link after "Or open: " in a body this server wrote.
    static func link(in body: String) -> String? {
        guard let start = body.range(of: "Or open: ")?.upperBound else { return nil }
        return String(body[start...].prefix { !$0.isWhitespace })
    }

    /// The newest link to `address` once more than `after` arrived, waiting (blocking) up to `seconds`.
    func waitForLink(to address: String, after: Int = 0, seconds: Double = 30) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let found = links.withLock { $0.filter { $0.to == address.lowercased() && $0.link != "-" } }
            if found.count > after { return found.last?.link }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return nil
    }
}
