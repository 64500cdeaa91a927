import Gatehouse
import Testing

@Suite("Account status for settings screens")
struct AccountStatusTests {
    @Test func masksTheAddressAndTheGuestID() {
        #expect(AccountStatus.mask(email: "ada@example.com") == "a•••@example.com")
        #expect(AccountStatus.mask(email: "a@b.co") == "a•••@b.co")
        #expect(AccountStatus.mask(email: "no-at-sign") == "n•••")
        #expect(AccountStatus.mask(id: "1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed") == "1b9d6bcd…")
    }

    @Test func followsTheSession() {
        let member = User(id: "u1", email: "ada@example.com")
        let guest = User(id: "1b9d6bcd-bbfd-4b2d", isAnonymous: true)

        let signedIn = AccountStatus(session: .success(member), isConfirmedByServer: true)
        #expect(
            signedIn == AccountStatus(kind: .signedIn, maskedIdentifier: "a•••@example.com", isConfirmedByServer: true)
        )
        #expect(signedIn.title == "Signed in")
        #expect(signedIn.summary == "Signed in · a•••@example.com · confirmed by the server")

        let guestStatus = AccountStatus(session: .success(guest), isConfirmedByServer: false)
        #expect(guestStatus.kind == .guest)
        #expect(guestStatus.maskedIdentifier == "1b9d6bcd…")
        #expect(guestStatus.summary.hasSuffix("not confirmed by the server yet"))

        #expect(AccountStatus(session: .success(nil), isConfirmedByServer: false).summary == "Not signed in")
        #expect(AccountStatus(session: .failure(.storageLocked()), isConfirmedByServer: false).kind == .unknown)
        #expect(AccountStatus(session: .loading, isConfirmedByServer: true).isConfirmedByServer == false)
    }

    @Test func anErrorThatCannotPassIsNotShownAsCheckingForever() {
        let corrupt = AccountStatus(session: .failure(.storageCorrupt(keychainItem: "x")), isConfirmedByServer: false)
        #expect(corrupt.kind == .unavailable)
        #expect(corrupt.title == "Sign-in needed")
        let unentitled = AccountStatus(session: .failure(.missingKeychainEntitlement()), isConfirmedByServer: false)
        #expect(unentitled.kind == .unavailable)
        let locked = AccountStatus(session: .failure(.storageLocked()), isConfirmedByServer: false)
        #expect(locked.kind == .unknown && locked.title == "Checking…", "a locked device is read again by itself")
    }

    @Test @MainActor func theServiceReportsIt() async throws {
        let fixture = Fixture()
        await fixture.service.restoreSession()
        #expect(fixture.service.accountStatus.kind == .signedOut)
        try await fixture.service.signUp(email: "ada@example.com", password: password)
        #expect(fixture.service.accountStatus.maskedIdentifier == "a•••@example.com")
        #expect(fixture.service.accountStatus.isConfirmedByServer)
    }
}
