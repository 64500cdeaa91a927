public import Gatehouse

extension CLIContext {
    /// Asks for the code(s) an e-mail change is waiting for, one address at a time (the new
    /// address first, then the current one), and enters each until the change completes.
    ///
    /// - Parameter status: What ``AuthService/updateUser(email:)`` (or a guest upgrade) reported.
    /// - Returns: The user with the new address.
    /// - Throws: ``CLIError`` when a code is missing; the SDK's errors for a wrong code.
    public func confirmEmailChange(_ status: EmailChangeStatus) async throws -> User {
        let addresses: [String]
        switch status {
        case .completed(let user): return user
        case .codesSentToBothAddresses(let new, let current): addresses = [new, current]
        case .codeSentToNewAddress(let new): addresses = [new]
        case .otherAddressPending: addresses = []
        }
        if addresses.count == 2 {
            console.err("To confirm the change, enter the code sent to each address.")
        }
        for address in addresses {
            console.err("A confirmation code was sent to \(address).")
            let code = try value(nil, prompt: "Code sent to \(address): ")
            let auth = self.auth
            let result = try await waiting("Confirming…") {
                try await auth.confirmEmailChange(email: address, code: code)
            }
            if case .completed(let user) = result { return user }
        }
        throw CLIError.usage(
            "The e-mail change is still waiting for a confirmation code.",
            hint: "Run `gatehouse change-email` again to get new codes."
        )
    }
}
