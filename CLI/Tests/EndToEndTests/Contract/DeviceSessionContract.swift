import Foundation
import Gatehouse
import Testing

/// Listing and ending sessions one by one: the same rules from `InMemoryAuthBackend` and the
/// real server through `GoTrueBackend`.
@Suite("Contract: device sessions", .serialized)
struct DeviceSessionContract {
    static let email = "ada@example.com"

    @Test(arguments: BackendKind.underTest)
    func sessionsAreListedNewestFirstWithTheLabelTheDeviceSent(_ kind: BackendKind) async throws {
        try await kind.run(ContractSettings(autoconfirm: true)) { world in
            let backend = world.backend
            _ = try await backend.signUp(email: Self.email, password: contractPassword, upgrading: nil)
            let phone = try await SignInDevice.$name.withValue("Ada's iPhone") {
                try await backend.signIn(email: Self.email, password: contractPassword)
            }
            let laptop = try await SignInDevice.$name.withValue("Ada's laptop") {
                try await backend.signIn(email: Self.email, password: contractPassword)
            }
            let listed = try await backend.sessions(for: phone)
            #expect(listed.count == 3)
            #expect(listed.prefix(2).map(\.device) == ["Ada's laptop", "Ada's iPhone"])
            #expect(listed.map(\.isCurrent) == [false, true, false])
            #expect(listed.map(\.createdAt) == listed.map(\.createdAt).sorted(by: >))
            #expect(listed.allSatisfy { $0.methods == ["password"] && $0.aal == "aal1" })
            #expect(try await backend.sessions(for: laptop).first?.isCurrent == true)
        }
    }

    @Test(arguments: BackendKind.underTest)
    func anEndedSessionIsRefusedAtOnceAndOnlyTheOwnerCanEndIt(_ kind: BackendKind) async throws {
        try await kind.run(ContractSettings(autoconfirm: true)) { world in
            let backend = world.backend
            _ = try await backend.signUp(email: Self.email, password: contractPassword, upgrading: nil)
            let this = try await backend.signIn(email: Self.email, password: contractPassword)
            let other = try await backend.signIn(email: Self.email, password: contractPassword)
            let stranger = try await backend.signInAnonymously()
            let otherID = try #require(try await backend.sessions(for: other).first { $0.isCurrent }?.id)

            let notYours = await expectFailure(.notFound) {
                try await backend.endSession(id: otherID, nonce: nil, for: stranger)
            }
            #expect(notYours?.endsSession == false, "a refusal about someone else's id ends nothing here")
            await expectFailure(.notFound) { try await backend.endSession(id: UUID(), nonce: nil, for: this) }
            #expect(try await backend.user(for: other).id == other.user.id)

            #expect(try await backend.endSession(id: otherID, nonce: nil, for: this) == .other)
            await expectFailure(.sessionNotFound) { try await backend.user(for: other) }
            await expectFailure(.refreshTokenNotFound) { try await backend.refresh(other) }
            await expectFailure(.notFound) { try await backend.endSession(id: otherID, nonce: nil, for: this) }
            let left = try await backend.sessions(for: this)
            #expect(!left.map(\.id).contains(otherID) && left.filter(\.isCurrent).count == 1)

            let thisID = try #require(left.first { $0.isCurrent }?.id)
            #expect(try await backend.endSession(id: thisID, nonce: nil, for: this) == .current)
            await expectFailure(.sessionNotFound) { try await backend.user(for: this) }
        }
    }

    @Test(arguments: BackendKind.underTest)
    func theServiceSignsOutTheDeviceWhoseSessionEnded(_ kind: BackendKind) async throws {
        try await kind.run(ContractSettings(autoconfirm: true)) { world in
            let laptop = await AuthService(
                backend: world.backend,
                store: InMemorySessionStore(),
                configuration: .init(deviceName: "laptop")
            )
            let phone = await AuthService(
                backend: world.backend,
                store: InMemorySessionStore(),
                configuration: .init(deviceName: "phone")
            )
            _ = try await laptop.signUp(email: Self.email, password: contractPassword)
            _ = try await phone.signIn(email: Self.email, password: contractPassword)
            let listed = try await laptop.sessions()
            #expect(listed.map(\.device) == ["phone", "laptop"])
            let phoneSession = try #require(listed.first { !$0.isCurrent })
            try await laptop.endSession(id: phoneSession.id)
            await expectFailure(.sessionNotFound) { try await phone.sessions() }
            #expect(await phone.state == .unauthenticated, "the ended device is signed out")
            #expect(await laptop.state != .unauthenticated)

            let own = try #require(try await laptop.sessions().first { $0.isCurrent })
            try await laptop.endSession(id: own.id)
            #expect(await laptop.state == .unauthenticated, "ending its own session signs out here")
        }
    }
}
