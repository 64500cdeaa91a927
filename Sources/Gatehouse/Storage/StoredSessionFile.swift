import Foundation

/// The versioned on-disk format of a stored session: `{"version": 1, "session": {...}}`.
enum StoredSessionFile {
    static let currentVersion = 1

    private struct Envelope: Codable {
        var version: Int
        var session: Session

        init(version: Int, session: Session) {
            self.version = version
            self.session = session
        }

        /// Reads the version first and the session only in a format this build knows, in one
        /// pass over the file (the restore at launch pays for this decode).
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            version = try container.decode(Int.self, forKey: .version)
            guard version == StoredSessionFile.currentVersion else { throw UnsupportedVersion(version: version) }
            session = try container.decode(Session.self, forKey: .session)
        }
    }

    struct UnsupportedVersion: Error, CustomStringConvertible {
        var version: Int
        var description: String { "unsupported stored session version \(version)" }
    }

    static func encode(_ session: Session) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .deferredToDate  // exact round trip
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(Envelope(version: currentVersion, session: session))
    }

    static func decode(_ data: Data) throws -> Session {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .deferredToDate
        return try decoder.decode(Envelope.self, from: data).session
    }
}
