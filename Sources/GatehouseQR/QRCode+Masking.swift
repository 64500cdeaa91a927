extension QRCode {
    /// Whether mask pattern `mask` flips the module at column `x`, row `y`.
    static func flips(mask: Int, x: Int, y: Int) -> Bool {
        switch mask {
        case 0: return (x + y) % 2 == 0
        case 1: return y % 2 == 0
        case 2: return x % 3 == 0
        case 3: return (x + y) % 3 == 0
        case 4: return (x / 3 + y / 2) % 2 == 0
        case 5: return x * y % 2 + x * y % 3 == 0
        case 6: return (x * y % 2 + x * y % 3) % 2 == 0
        default: return ((x + y) % 2 + x * y % 3) % 2 == 0
        }
    }

    /// XORs the mask over every module that is not part of a function pattern; applying it twice undoes it.
    mutating func applyMask(_ mask: Int) {
        for y in 0..<size {
            for x in 0..<size where !isFunction[y * size + x] && Self.flips(mask: mask, x: x, y: y) {
                modules[y * size + x].toggle()
            }
        }
    }

    /// This code with the mask of lowest penalty applied (or `forced`) and its format bits drawn.
    func withBestMask(_ forced: Int?) -> QRCode {
        var best = self
        var bestPenalty = Int.max
        for mask in forced.map({ [$0] }) ?? Array(0..<8) {
            var candidate = self
            candidate.applyMask(mask)
            candidate.drawFormatBits(mask: mask)
            let penalty = candidate.penalty()
            if penalty < bestPenalty {
                best = QRCode(copying: candidate, mask: mask)
                bestPenalty = penalty
            }
        }
        return best
    }

    private init(copying other: QRCode, mask: Int) {
        self.size = other.size
        self.version = other.version
        self.mask = mask
        self.modules = other.modules
        self.isFunction = other.isFunction
    }

    /// The standard's penalty score: runs of one colour, 2×2 blocks, finder-like patterns and imbalance.
    func penalty() -> Int {
        var result = 0
        for line in 0..<size {
            result += linePenalty { modules[line * size + $0] }
            result += linePenalty { modules[$0 * size + line] }
        }
        for y in 0..<size - 1 {
            for x in 0..<size - 1 {
                let colour = self[x, y]
                if colour == self[x + 1, y], colour == self[x, y + 1], colour == self[x + 1, y + 1] { result += 3 }
            }
        }
        let dark = modules.filter { $0 }.count
        let total = size * size
        result += ((abs(dark * 20 - total * 10) + total - 1) / total - 1) * 10
        return result
    }

    /// Penalty of one row or column: runs of five or more, and 1:1:3:1:1 finder-like patterns.
    private func linePenalty(_ module: (Int) -> Bool) -> Int {
        var result = 0
        var runColour = false
        var runLength = 0
        var history = [Int](repeating: 0, count: 7)
        for index in 0..<size {
            if module(index) == runColour {
                runLength += 1
                if runLength == 5 { result += 3 } else if runLength > 5 { result += 1 }
            } else {
                addHistory(runLength, &history)
                if !runColour { result += finderLikePatterns(history) * 40 }
                runColour = module(index)
                runLength = 1
            }
        }
        if runColour {
            addHistory(runLength, &history)
            runLength = 0
        }
        addHistory(runLength + size, &history)
        return result + finderLikePatterns(history) * 40
    }

    private func addHistory(_ length: Int, _ history: inout [Int]) {
        history.removeLast()
        history.insert(history[0] == 0 ? length + size : length, at: 0)
    }

    private func finderLikePatterns(_ history: [Int]) -> Int {
        let unit = history[1]
        let core = unit > 0 && history[2] == unit && history[3] == unit * 3 && history[4] == unit && history[5] == unit
        return (core && history[0] >= unit * 4 && history[6] >= unit ? 1 : 0)
            + (core && history[6] >= unit * 4 && history[0] >= unit ? 1 : 0)
    }
}
