import Foundation
import GatehouseStorage
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// The pure rule of `security.md` OWN-1, on every branch.
@Suite("Address proof")
struct AddressProofTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func user(confirmed: Bool, password: Bool, code: String? = "link-1") -> UserRecord {
        UserRecord(
            email: "ada@example.com",
            passwordHash: password ? "$2b$04$hash" : nil,
            emailConfirmedAt: confirmed ? now : nil,
            passwordCode: code,
            createdAt: now,
            updatedAt: now
        )
    }

    @Test func theSignUpsOwnCodeProvesItsPassword() {
        let decision = AddressProof.decide(
            user: user(confirmed: false, password: true),
            purpose: .signup,
            linkHash: "link-1"
        )
        #expect(decision == .confirmWithPassword)
        var proven = user(confirmed: false, password: true)
        decision.apply(to: &proven, now: now)
        #expect(proven.passwordHash != nil && proven.emailConfirmedAt == now && proven.passwordCode == nil)
    }

    @Test func anyOtherProofDropsAnUnprovenPassword() {
        for (purpose, link) in [(CodePurpose.signup, "link-2"), (.magicLink, "link-1"), (.recovery, "link-1")] {
            let decision = AddressProof.decide(
                user: user(confirmed: false, password: true),
                purpose: purpose,
                linkHash: link
            )
            #expect(decision == .dropUnprovenPassword, "\(purpose)")
        }
        #expect(
            AddressProof.decide(user: user(confirmed: false, password: true), purpose: .magicLink, linkHash: nil)
                == .dropUnprovenPassword,
            "a provider that vouches for the address"
        )
        var dropped = user(confirmed: false, password: true)
        AddressProof.dropUnprovenPassword.apply(to: &dropped, now: now)
        #expect(dropped.passwordHash == nil && dropped.emailConfirmedAt == now)
    }

    @Test func aConfirmedAddressOrNoPasswordChangesNothing() {
        #expect(
            AddressProof.decide(user: user(confirmed: true, password: true), purpose: .magicLink, linkHash: nil)
                == .confirm
        )
        #expect(
            AddressProof.decide(user: user(confirmed: false, password: false), purpose: .magicLink, linkHash: nil)
                == .confirm
        )
    }
}
