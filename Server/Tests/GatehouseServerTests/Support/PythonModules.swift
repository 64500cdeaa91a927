import Foundation
import GatehouseProcessTesting

/// Whether the Python modules a test drives are installed (`.ci/run` installs them); the
/// interop suites are skipped without them locally, and required when `CI` is set.
enum PythonModules {
    /// Whether `python3 -c "import <modules>"` succeeds.
    static func installed(_ modules: String) -> Bool {
        let probe = ChildProcess()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["python3", "-c", "import \(modules)"]
        probe.standardOutput = .null
        probe.standardError = .null
        do {
            try probe.run()
            return probe.waitUntilExitBlocking(timeout: .seconds(30)) && probe.terminationStatus == 0
        } catch {
            return false
        }
    }
}
