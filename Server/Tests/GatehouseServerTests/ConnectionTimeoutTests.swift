import Foundation
import GatehouseProcessTesting
import GatehouseServerSupport
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Issue 15: connections that stall (half a head, a body that stops or trickles) are closed
/// within the configured timeouts, while the server keeps answering everyone else.
@Suite("Connection timeouts")
struct ConnectionTimeoutTests {
    @Test func stalledConnectionsAreClosedWhileOthersAreAnswered() async throws {
        let harness = try await Harness.make {
            // Short, but not so short that a loaded machine (the whole suite on two cores) leaves
            // a healthy client's request unread for that long: at 1 s, a CI run's health check
            // below was closed as idle once.
            $0.connections.idleTimeout = 3
            $0.connections.readTimeout = 4
        }
        defer { harness.removeFiles() }
        try await harness.live { client in
            let port = try #require(client.client.port)
            // Fresh connections for the others (the test client's own would idle out too).
            let http = HTTPClient()
            let health = URL(string: "http://127.0.0.1:\(port)/health")!
            // Given 30 connections with half a head, and 30 with a head and part of a body,
            var stalled: [RawConnection] = []
            for index in 0..<60 {
                let connection = try RawConnection(port: port)
                if index % 2 == 0 {
                    connection.send("POST /signup HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n")
                } else {
                    connection.send(
                        "POST /signup HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                            + "Content-Length: 1000\r\n\r\n{\"email\":"
                    )
                }
                stalled.append(connection)
            }
            // and one that sends its body a byte every 200 ms (it would take 200 s),
            let trickle = try RawConnection(port: port)
            trickle.send("POST /signup HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000\r\n\r\n")
            let trickling = Task {
                while !Task.isCancelled, trickle.send("x") { try? await Task.sleep(for: .milliseconds(200)) }
            }
            defer { trickling.cancel() }
            // and one that, kept alive, first sends a whole request, then trickles a second one
            // after the first request's deadline would have been armed (the read timeout's timer
            // is armed once and moved on to the request arriving when it fires: issue 35).
            let keptAlive = try RawConnection(port: port)
            keptAlive.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
            try await Task.sleep(for: .seconds(2))
            keptAlive.send("POST /signup HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000\r\n\r\n")
            let tricklingAgain = Task {
                while !Task.isCancelled, keptAlive.send("x") { try? await Task.sleep(for: .milliseconds(200)) }
            }
            defer { tricklingAgain.cancel() }

            // the server keeps answering others meanwhile,
            for _ in 0..<5 {
                #expect(await http.send("GET", health).status == 200, "answered while 61 connections stall")
                try await Task.sleep(for: .milliseconds(100))
            }

            // and closes every stalled connection. The windows are generous so that a loaded
            // machine cannot fail the test; without the timeouts these connections stay open
            // (the trickling body alone would take 200 s), so the test still fails if they go.
            for connection in stalled {
                #expect(await connection.waitForClose(within: 30), "a stalled connection stayed open")
            }
            #expect(await trickle.waitForClose(within: 30), "a trickling body kept its connection")
            #expect(
                await keptAlive.waitForClose(within: 30),
                "a trickling body after a whole request kept its connection"
            )
            #expect(await http.send("GET", health).status == 200)
        }
    }

    @Test func connectionsBeyondTheLimitWaitForAFreeSlot() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gatehouse-slots-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await ServerProcess(
            environment: [
                "GATEHOUSE_DATABASE_URL": directory.appendingPathComponent("gatehouse.sqlite").path,
                "GATEHOUSE_MAX_CONNECTIONS": "2", "GATEHOUSE_IDLE_TIMEOUT": "3",
            ],
            logDirectory: directory
        )
        try await Task.sleep(for: .milliseconds(3500))  // the start-up probe's connection has idled out
        // Given two idle connections holding both slots,
        let idle = [try RawConnection(port: server.port), try RawConnection(port: server.port)]
        try await Task.sleep(for: .milliseconds(200))
        // a third client is accepted only once an idle one has timed out.
        let asked = Date()
        let answer = await HTTPClient().send("GET", server.url.appendingPathComponent("health"))
        #expect(answer.status == 200)
        #expect(Date().timeIntervalSince(asked) > 1, "it waited for a slot")
        for connection in idle { #expect(await connection.waitForClose(within: 4)) }
        await server.kill()
    }

    @Test func timeoutsAndTheConnectionLimitAreConfigurable() throws {
        let configuration = try ServerConfiguration(environment: [
            "GATEHOUSE_IDLE_TIMEOUT": "15", "GATEHOUSE_READ_TIMEOUT": "20", "GATEHOUSE_MAX_CONNECTIONS": "64",
        ])
        #expect(configuration.connections.idleTimeout == 15)
        #expect(configuration.connections.readTimeout == 20)
        #expect(configuration.connections.maxConnections == 64)
        #expect(throws: ConfigurationError.self) {
            try ServerConfiguration(environment: ["GATEHOUSE_READ_TIMEOUT": "0"])
        }
    }
}
