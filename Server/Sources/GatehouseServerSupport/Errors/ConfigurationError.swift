/// A configuration value that cannot be used: the variable, and what is wrong with its value.
public struct ConfigurationError: Error, CustomStringConvertible, Equatable {
    /// The environment variable, such as `GATEHOUSE_DATABASE_URL`.
    public var variable: String
    /// What is wrong, as the end of a sentence that starts with the variable's name.
    public var problem: String

    /// The error for `variable`, whose value `problem`.
    public init(variable: String, problem: String) {
        self.variable = variable
        self.problem = problem
    }

    public var description: String { "\(variable) \(problem)." }
}
