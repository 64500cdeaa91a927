import Foundation

extension KeychainSessionStore {
    var itemDescription: String { "keychain item \(service)/\(account)" }

    func keychainLoad() throws -> Session? {
        let target = KeychainQuery(service: service, account: account, accessGroup: try provenGroup())
        let (status, item) = client.copyMatching(target)
        switch status {
        case .success:
            guard let item else { throw AuthError.storageFailure("reading \(itemDescription): no data") }
            return try decode(item.data, from: "\(service)/\(account)")
        case .itemNotFound:
            return try migrate(into: target)
        default:
            throw try Self.failure(status, "reading \(itemDescription)")
        }
    }

    func keychainSave(_ data: Data) throws {
        let target = KeychainQuery(service: service, account: account, accessGroup: try provenGroup())
        try write(data, to: target)
    }

    func keychainDelete() throws {
        let target = KeychainQuery(service: service, account: account, accessGroup: try provenGroup())
        try remove(target)
        for source in try resolvedSources() where source != target {
            try remove(source)
        }
        try fallback?.delete()
    }

    /// Proves the keychain readable with a probe item, once per process, and returns the
    /// access group in use.
    func provenGroup() throws -> String? {
        if let group = state.withLock({ $0.proven ? Optional($0.group) : nil }) { return group }
        let group = try probe(in: accessGroup)
        state.withLock { state in
            state.proven = true
            state.group = accessGroup ?? group
            if accessGroup == nil { state.defaultGroup = .some(group) }
        }
        return accessGroup ?? group
    }

    /// Writes and removes a probe item in `group`; returns the group it landed in.
    private func probe(in group: String?) throws -> String? {
        let probe = KeychainQuery(service: "\(service).probe", account: UUID().uuidString, accessGroup: group)
        let (status, landed) = client.add(probe, Data("probe".utf8), .afterFirstUnlockThisDeviceOnly)
        guard status == .success else { throw try Self.failure(status, "probing the keychain") }
        _ = client.delete(probe.inGroup(landed ?? group))
        return landed ?? group
    }

    /// The migration sources with the app's default group named where they say `nil`.
    private func resolvedSources() throws -> [KeychainQuery] {
        guard !migrationSources.isEmpty else { return [] }
        var defaultGroup = state.withLock { $0.defaultGroup }
        if defaultGroup == nil, migrationSources.contains(where: { $0.accessGroup == nil }) {
            let found = try probe(in: nil)
            state.withLock { $0.defaultGroup = .some(found) }
            defaultGroup = .some(found)
        }
        return migrationSources.map { $0.accessGroup == nil ? $0.inGroup(defaultGroup ?? nil) : $0 }
    }

    /// Moves the session from an earlier place (or the fallback store) to `target`.
    private func migrate(into target: KeychainQuery) throws -> Session? {
        for source in try resolvedSources() where source != target {
            let (status, item) = client.copyMatching(source)
            if status == .itemNotFound { continue }
            guard status == .success, let item else {
                throw try Self.failure(status, "reading \(source.service)/\(source.account)")
            }
            let session = try decode(item.data, from: "\(source.service)/\(source.account)")
            try write(item.data, to: target)
            try remove(source.inGroup(item.accessGroup))
            return session
        }
        if let fallback, let session = try fallback.load() {
            try write(StoredSessionFile.encode(session), to: target)
            try fallback.delete()
            return session
        }
        return nil
    }

    /// Updates the item, or adds it when there is none. Another process sharing the item (the
    /// app and its extension, both saving their first session) can add it between our update
    /// and our add: the add then answers `errSecDuplicateItem`, and the item is updated.
    private func write(_ data: Data, to target: KeychainQuery) throws {
        var status = client.update(target, data, accessibility)
        if status == .itemNotFound {
            status = client.add(target, data, accessibility).status
            if status == .duplicateItem {
                status = client.update(target, data, accessibility)
            }
        }
        guard status == .success else { throw try Self.failure(status, "writing \(itemDescription)") }
    }

    private func remove(_ query: KeychainQuery) throws {
        let status = client.delete(query)
        guard status == .success || status == .itemNotFound else {
            throw try Self.failure(status, "removing \(query.service)/\(query.account)")
        }
    }

    private func decode(_ data: Data, from location: String) throws -> Session {
        do {
            return try StoredSessionFile.decode(data)
        } catch {
            throw AuthError.storageCorrupt(keychainItem: location, underlying: "\(error)")
        }
    }

    /// The error for a failed call; a missing entitlement is thrown as ``MissingEntitlement``
    /// so that the store can fall back.
    static func failure(_ status: KeychainStatus, _ action: String) throws -> AuthError {
        switch status {
        case .interactionNotAllowed:
            return .storageLocked()
        case .missingEntitlement:
            throw MissingEntitlement()
        default:
            return .storageFailure("\(action): OSStatus \(status.osStatus)")
        }
    }
}
