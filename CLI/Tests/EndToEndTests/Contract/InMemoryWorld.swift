import Foundation
import Gatehouse
import GatehouseTesting

/// `InMemoryAuthBackend` on a manual clock.
struct InMemoryWorld: ContractWorld {
    let clock = ManualClock(start: Date())
    let memory: InMemoryAuthBackend

    var backend: any AuthBackend { memory }

    init(_ settings: ContractSettings) {
        memory = InMemoryAuthBackend(
            configuration: .init(
                requiresEmailConfirmation: !settings.autoconfirm,
                allowsAnonymousSignIn: settings.guests,
                now: clock.now,
                passkeyRelyingPartyID: settings.passkeys ? "example.com" : nil
            )
        )
    }

    func codeCount(to email: String, settled: Bool) async -> Int {
        await memory.sentCodes.filter { $0.email == email }.count
    }

    func code(to email: String, after count: Int) async throws -> String {
        let codes = await memory.sentCodes.filter { $0.email == email }
        guard codes.count > count, let last = codes.last else { throw EndToEndServerError.noCode(email) }
        return last.code
    }

    func appleIDToken(subject: String, email: String?, emailVerified: Bool, nonce: String?) async -> String {
        await memory.makeIDToken(
            provider: .apple,
            subject: subject,
            email: email,
            emailVerified: emailVerified,
            nonce: nonce
        )
    }

    func googleIDToken(subject: String, email: String, nonce: String, unhashed: Bool) async -> String {
        await memory.makeIDToken(
            provider: .google,
            subject: subject,
            email: email,
            nonce: nonce,
            nonceUnhashed: unhashed
        )
    }

    func providerConsent(at url: URL, as account: InMemoryAuthBackend.ProviderAccount?) async throws -> URL {
        guard let account else { return try await memory.decline(at: url) }
        return try await memory.consent(at: url, as: account)
    }

    func now() -> Date { clock.now() }

    func passReuseInterval() { clock.advance(by: 11) }

    func ageSignIns() { clock.advance(by: 660) }

    func close() {}
}
