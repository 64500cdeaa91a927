import GatehouseCore
import GatehouseStorage
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// The one mapping between code purposes and the wire's verification types.
@Suite("Code purposes")
struct CodePurposeTests {
    @Test func everyMailedLinkVerifiesItsOwnPurpose() {
        for purpose in CodePurpose.allCases where purpose != .reauthentication {
            let accepted = CodePurpose.verified(by: purpose.verificationType)
            #expect(accepted?.contains(purpose) == true, "\(purpose)")
        }
        #expect(CodePurpose.verified(by: "reauthentication") == nil, "a reauthentication code is a nonce only")
    }

    @Test func theWireTypesMapAsGoTrueDoes() {
        #expect(CodePurpose.verified(by: .signup) == [.signup])
        #expect(CodePurpose.verified(by: .email) == [.magicLink, .signup])
        #expect(CodePurpose.verified(by: .magiclink) == [.magicLink, .signup])
        #expect(CodePurpose.verified(by: .recovery) == [.recovery])
        #expect(CodePurpose.verified(by: .emailChange) == [.emailChange, .emailChangeCurrent])
        #expect(CodePurpose.verified(by: .invite) == [.invite])
        #expect(CodePurpose.verified(by: "sms") == nil)
        #expect(CodePurpose.magicLink.rawValue == "email", "the stored spelling never changes")
        #expect(CodePurpose.magicLink.verificationType == .magiclink)
        #expect(CodePurpose(linkType: "email_change_new") == .emailChange)
        #expect(CodePurpose(linkType: "email_change_current") == .emailChangeCurrent)
        #expect(CodePurpose(linkType: "email") == nil)
    }

    @Test func aCodeMailCarriesTheCodeAndALinkOfItsType() {
        let template = CodeMailTemplate(
            externalURL: "https://auth.example.com",
            siteURL: "https://app.example.com",
            lifetime: 600
        )
        let mail = template.mail(to: "ada@example.com", purpose: .magicLink, code: "012345", link: "abc")
        #expect(mail.subject == "Your sign-in code")
        #expect(
            mail.body.contains(
                "https://auth.example.com/verify?token=abc&type=magiclink&redirect_to=https%3A%2F%2Fapp%2Eexample%2Ecom"
            )
        )
        #expect(mail.body.contains("10 minutes"))
        #expect(CodeMailTemplate.code(in: mail.body) == "012345", "the log mailer finds it")
        #expect(CodeMailTemplate.code(in: "Hello") == nil)
    }
}
