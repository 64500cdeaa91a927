import Foundation
import GatehouseServerSupport
public import GatehouseStorage

/// Writes the users of an export through the server's storage, in batches of one transaction
/// each, so that an interrupted run keeps what it committed and a second run finds it:
///
/// 1. Records that cannot be told apart are refused before anything is written: addresses that
///    differ only in case, ids or provider identities that appear twice.
/// 2. Each batch, in one transaction, skips users whose id is here already (this import, run
///    before), refuses users whose address or provider identity another user here has, and
///    inserts the rest with their identities: a few set-wise statements per batch, whatever its
///    size, so that PostgreSQL's round trips do not add up.
///
/// A dry run does step 2's reads outside any transaction and writes nothing.
public struct UserImporter: Sendable {
    let storage: any AuthStorage
    let options: ImportOptions

    public init(storage: any AuthStorage, options: ImportOptions) {
        self.storage = storage
        self.options = options
    }

    /// Imports `records`, calling `progress` with the number of records done after each batch.
    func run(
        _ records: [ImportRecord],
        progress: @Sendable (Int, Int) -> Void = { _, _ in }
    ) async throws -> ImportReport {
        var report = ImportReport()
        var refusals: [Int: ImportRefusal] = [:]
        var candidates: [(index: Int, candidate: ImportCandidate)] = []
        for (index, record) in records.enumerated() {
            switch record {
            case .refused(let refusal): refusals[index] = refusal
            case .user(let candidate): candidates.append((index, candidate))
            }
        }
        for (index, reason) in Self.conflictsWithinExport(candidates) {
            refusals[index] = ImportRefusal(record: records.candidate(at: index)?.sourceID ?? "", reason: reason)
        }
        let accepted = candidates.filter { refusals[$0.index] == nil }
        var done = 0
        for start in stride(from: 0, to: accepted.count, by: max(1, options.batchSize)) {
            let batch = Array(accepted[start..<min(start + max(1, options.batchSize), accepted.count)])
            let outcomes = try await write(batch.map(\.candidate))
            for (item, outcome) in zip(batch, outcomes) {
                switch outcome {
                case .imported:
                    report.imported += 1
                    if item.candidate.user.passwordHash != nil { report.withPassword += 1 }
                    report.identities += item.candidate.user.identities.count
                    report.factors += item.candidate.user.factors.count
                    report.skippedFactors += item.candidate.skippedFactors
                case .alreadyPresent: report.alreadyPresent += 1
                case .refused(let reason):
                    refusals[item.index] = ImportRefusal(record: item.candidate.sourceID, reason: reason)
                }
            }
            done += batch.count
            progress(done, accepted.count)
        }
        report.refusals = refusals.sorted { $0.key < $1.key }.map(\.value)
        return report
    }

    /// What became of one user of a batch.
    enum Outcome: Sendable, Equatable {
        case imported
        case alreadyPresent
        case refused(ImportRefusal.Reason)
    }

    /// One batch: in one transaction, or read-only on a dry run.
    private func write(_ batch: [ImportCandidate]) async throws -> [Outcome] {
        if options.dryRun {
            return try await storage.read { reader in try await Self.outcomes(batch, reader: reader, writer: nil) }
        }
        return try await storage.transaction { tx in try await Self.outcomes(batch, reader: tx, writer: tx) }
    }

    private static func outcomes(
        _ batch: [ImportCandidate],
        reader: any StorageReader,
        writer: (any StorageTransaction)?
    ) async throws -> [Outcome] {
        let present = try await reader.existingUserIDs(batch.map(\.user.id))
        let fresh = batch.filter { !present.contains($0.user.id) }
        let takenEmails = try await reader.existingEmails(fresh.compactMap(\.user.email))
        let takenIdentities = try await reader.existingIdentities(
            fresh.flatMap { $0.user.identities.map { IdentityKey(provider: $0.provider, subject: $0.subject) } }
        )
        var outcomes: [Outcome] = []
        var accepted: [UserRecord] = []
        outcomes.reserveCapacity(batch.count)
        for candidate in batch {
            let user = candidate.user
            if present.contains(user.id) {
                outcomes.append(.alreadyPresent)
            } else if let email = user.email, takenEmails.contains(email) {
                outcomes.append(.refused(.addressTaken))
            } else if let taken = user.identities.first(where: {
                takenIdentities.contains(IdentityKey(provider: $0.provider, subject: $0.subject))
            }) {
                outcomes.append(.refused(.identityTaken(provider: taken.provider.rawValue)))
            } else {
                accepted.append(user)
                outcomes.append(.imported)
            }
        }
        try await writer?.insertUsers(accepted)
        return outcomes
    }

    /// Records of the export that collide with another record of it: every record of an
    /// address that appears more than once (case ignored), of an id that does, or of a provider
    /// identity that does.
    static func conflictsWithinExport(
        _ candidates: [(index: Int, candidate: ImportCandidate)]
    ) -> [Int: ImportRefusal.Reason] {
        var byEmail: [String: [Int]] = [:]
        var byID: [UUID: [Int]] = [:]
        var byIdentity: [String: [Int]] = [:]
        for (index, candidate) in candidates {
            if let email = candidate.user.email { byEmail[email.lowercased(), default: []].append(index) }
            byID[candidate.user.id, default: []].append(index)
            for identity in candidate.user.identities {
                byIdentity[identity.provider.rawValue + "\u{0}" + identity.subject, default: []].append(index)
            }
        }
        var conflicts: [Int: ImportRefusal.Reason] = [:]
        for (key, indexes) in byIdentity where indexes.count > 1 {
            let provider = String(key.prefix { $0 != "\u{0}" })
            for index in indexes { conflicts[index] = .identityTaken(provider: provider) }
        }
        for indexes in byEmail.values where indexes.count > 1 {
            for index in indexes { conflicts[index] = .duplicateAddress }
        }
        for indexes in byID.values where indexes.count > 1 { for index in indexes { conflicts[index] = .duplicateID } }
        return conflicts
    }
}

extension [ImportRecord] {
    fileprivate func candidate(at index: Int) -> ImportCandidate? {
        if case .user(let candidate) = self[index] { candidate } else { nil }
    }
}
