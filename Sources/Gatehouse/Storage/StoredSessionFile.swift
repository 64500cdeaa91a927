import Foundation

/// The versioned on-disk format of a stored session: `{"version": 1, "session": {...}}`.
enum StoredSessionFile {
    static let currentVersion = 1

    private struct Envelope: Codable {
        var version: Int
        var session: Session
    }

    private struct VersionProbe: Decodable {
        var version: Int
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
        let probe = try decoder.decode(VersionProbe.self, from: data)
        guard probe.version == currentVersion else { throw UnsupportedVersion(version: probe.version) }
        return try decoder.decode(Envelope.self, from: data).session
    }
}
