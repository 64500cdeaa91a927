import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Terminal input and output: prompts, passwords without echo, and where text goes.
///
/// When standard input is not a terminal (a script or a test feeding answers on a pipe),
/// prompts still print and answers are read line by line.
public struct Console: Sendable {
    /// Whether standard output is a terminal.
    public var stdoutIsTerminal: Bool
    /// Whether standard input is a terminal.
    public var stdinIsTerminal: Bool

    /// The process's console.
    public static var standard: Console {
        Console(stdoutIsTerminal: isatty(STDOUT_FILENO) == 1, stdinIsTerminal: isatty(STDIN_FILENO) == 1)
    }

    /// Creates a console description.
    public init(stdoutIsTerminal: Bool, stdinIsTerminal: Bool) {
        self.stdoutIsTerminal = stdoutIsTerminal
        self.stdinIsTerminal = stdinIsTerminal
    }

    /// Prints a line to standard output.
    public func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Prints a line to standard error.
    public func err(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Asks for a line of text; `nil` at end of input.
    public func prompt(_ question: String) -> String? {
        FileHandle.standardError.write(Data(question.utf8))
        return readLine(strippingNewline: true)
    }

    /// Asks for a secret without echoing it when input is a terminal; `nil` at end of input.
    ///
    /// Echo goes off before the question is shown, so whatever is typed once it shows is never
    /// echoed; and the terminal's settings change at once (`TCSANOW`), never discarding input
    /// already typed (`TCSAFLUSH` dropped a password typed right after the question, and the
    /// prompt then waited forever).
    public func promptSecret(_ question: String) -> String? {
        guard stdinIsTerminal else {
            FileHandle.standardError.write(Data(question.utf8))
            return readLine(strippingNewline: true)
        }
        var original = termios()
        tcgetattr(STDIN_FILENO, &original)
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSANOW, &original)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        FileHandle.standardError.write(Data(question.utf8))
        return readLine(strippingNewline: true)
    }
}
