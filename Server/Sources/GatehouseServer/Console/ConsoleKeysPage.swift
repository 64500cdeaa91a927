import Foundation
import GatehouseFlows
import GatehouseStorage

/// `/console/keys`: the signing keys, oldest first, the newest marked as the one that signs
/// (from the next start on, as `gatehouse-server keys rotate` says); rotate adds one, retire
/// removes one that no longer signs (``SigningKeyAdmin``'s rules). No private key is shown.
struct ConsoleKeysPage: Sendable {
    let storage: any AuthStorage

    func render(notice: HTML, operator signedIn: ConsoleOperator) async throws -> HTML {
        let keys = try await SigningKeyAdmin.list(storage: storage).sorted { $0.createdAt < $1.createdAt }
        let newest = keys.last?.kid
        let csrf = ConsoleLayout.csrfField(signedIn)
        let rows: [HTML] = keys.map { key in
            let retire: HTML =
                key.kid == newest
                ? "<span class=\"muted\">signs (from the next start)</span>"
                : """
                <form class="inline" method="post" action="/console/keys/retire">\(csrf)
                <input type="hidden" name="kid" value="\(key.kid)"><button class="danger" type="submit">Retire</button></form>
                """
            return
                "<tr><td class=\"mono\">\(key.kid)</td><td>\(key.algorithm)</td><td>\(ConsoleLayout.time(key.createdAt))</td><td>\(retire)</td></tr>"
        }
        let table: HTML =
            keys.isEmpty
            ? "<p class=\"empty\">No stored key: the server signs with its configured secret.</p>"
            : "<table><thead><tr><th>Key id</th><th>Algorithm</th><th>Created</th><th></th></tr></thead><tbody>\(rows)</tbody></table>"
        let content: HTML = """
            <section><p class="muted">A new key signs from the server's next start; older keys keep verifying until retired.</p>
            \(table)
            <form class="inline" method="post" action="/console/keys/rotate">\(csrf)<button type="submit" id="rotate">Rotate: add a new key</button></form>
            </section>
            """
        return ConsoleLayout.page(title: "Signing keys", operator: signedIn, notice: notice, content: content)
    }
}
