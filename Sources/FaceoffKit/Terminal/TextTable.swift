/// How many terminal columns text takes: one per character, two for wide East Asian
/// characters and emoji, none for escape sequences.
public enum DisplayWidth {
    public static func of(_ text: String) -> Int {
        var width = 0
        var inEscape = false
        for character in text {
            if inEscape {
                if character.isLetter { inEscape = false }
                continue
            }
            if character == "\u{1B}" {
                inEscape = true
                continue
            }
            width += of(character)
        }
        return width
    }

    static func of(_ character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        let value = scalar.value
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        if scalar.properties.generalCategory == .nonspacingMark || value == 0x200D { return 0 }
        // Emoji take two columns: those shown as emoji by default (🚨 ❌ ✅) and any asked
        // for with the emoji variation selector (⚠️ ✏️).
        if isWide(value) || scalar.properties.isEmojiPresentation || character.unicodeScalars.contains("\u{FE0F}") { return 2 }
        return 1
    }

    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// Cuts text to `width` columns, ending in "…" when something was cut.
    public static func truncate(_ text: String, to width: Int) -> String {
        guard of(text) > width else { return text }
        guard width > 0 else { return "" }
        var result = ""
        var used = 0
        for character in text {
            let size = of(character)
            if used + size > width - 1 { break }
            result.append(character)
            used += size
        }
        return result + "…"
    }

    /// An alert line cut to `width` columns: the pieces after its first (" · " separated:
    /// strength, score, game time) stay whole and the first (the title and the names) gives
    /// way; a pane too narrow even for them keeps as many of the last pieces as leave room.
    public static func shorten(_ line: String, to width: Int) -> String {
        guard of(line) > width else { return line }
        let parts = line.components(separatedBy: " · ")
        for kept in stride(from: parts.count - 1, through: 1, by: -1) {
            let tail = " · " + parts.suffix(kept).joined(separator: " · ")
            let room = width - of(tail)
            if room >= minimumHead { return truncate(parts.dropLast(kept).joined(separator: " · "), to: room) + tail }
        }
        return truncate(line, to: width)
    }

    /// The first of an alert's forms (fullest first: the narrower leave out assists and
    /// "drawn by") that fits `width`, else the last one shortened.
    public static func fit(_ forms: [String], to width: Int) -> String {
        forms.first { of($0) <= width } ?? shorten(forms.last ?? "", to: width)
    }

    /// Columns a cut title keeps at least: its emoji and the start of its words.
    static let minimumHead = 12

    public static func pad(_ text: String, to width: Int, right: Bool = false) -> String {
        let gap = max(0, width - of(text))
        let spaces = String(repeating: " ", count: gap)
        return right ? spaces + text : text + spaces
    }
}

/// A table for the terminal: columns sized to their content, shrunk (with "…") to fit a width,
/// and styled after padding so colour codes never upset the alignment.
public struct TextTable {
    public enum Alignment { case left, right }

    public struct Column {
        public var header: String
        public var alignment: Alignment
        /// Columns that may be cut short when the table is too wide, narrowest first.
        public var shrinkable: Bool
        public var minimumWidth: Int
        /// When shrinking isn't enough, columns with a drop rank go, lowest rank first.
        public var dropRank: Int?
        /// The least room the column takes before any shrinking (`aligned`).
        public var atLeast = 0

        public init(_ header: String, _ alignment: Alignment = .left, shrinkable: Bool = false, minimumWidth: Int = 4, dropRank: Int? = nil)
        {
            self.header = header
            self.alignment = alignment
            self.shrinkable = shrinkable
            self.minimumWidth = minimumWidth
            self.dropRank = dropRank
        }
    }

    public struct Cell {
        public var text: String
        public var style: ((String) -> String)?

        public init(_ text: String, style: ((String) -> String)? = nil) {
            self.text = text
            self.style = style
        }
    }

    public struct Row {
        public var cells: [Cell]
        /// Applied to the whole padded line (team colours, highlights).
        public var style: ((String) -> String)?
    }

    public var columns: [Column]
    public private(set) var rows: [Row] = []
    public var separator = "  "

    public init(columns: [Column]) { self.columns = columns }

    public mutating func add(_ cells: [Cell], style: ((String) -> String)? = nil) {
        rows.append(Row(cells: cells, style: style))
    }

    public mutating func add(_ texts: [String], style: ((String) -> String)? = nil) {
        add(texts.map { Cell($0) }, style: style)
    }

    /// Tables of the same columns (a standings' groups, one under another) made as wide as
    /// each other, column by column, so that they line up at any width.
    public static func aligned(_ tables: [TextTable]) -> [TextTable] {
        let natural = tables.map { $0.widths(limit: nil).map { $0 ?? 0 } }
        let count = natural.map(\.count).max() ?? 0
        let widest = (0..<count).map { index in natural.map { $0.indices.contains(index) ? $0[index] : 0 }.max() ?? 0 }
        return tables.map { table in
            var table = table
            for index in table.columns.indices where index < count { table.columns[index].atLeast = widest[index] }
            return table
        }
    }

    /// The column widths that fit `limit` (nil: no limit); nil for a dropped column.
    func widths(limit: Int?) -> [Int?] {
        var natural = columns.map { max(DisplayWidth.of($0.header), $0.atLeast) }
        for row in rows {
            for (index, cell) in row.cells.enumerated() where index < natural.count {
                natural[index] = max(natural[index], DisplayWidth.of(cell.text))
            }
        }
        // A column with nothing in it, header included, takes no room at all.
        let full: [Int?] = natural.map { $0 == 0 ? nil : $0 }
        guard let limit else { return full }
        func total(_ widths: [Int?]) -> Int {
            let shown = widths.compactMap { $0 }
            return shown.reduce(0, +) + separator.count * max(0, shown.count - 1)
        }
        // Shrinkable columns among `which` cut, widest first, down to their minimum.
        func cut(_ widths: inout [Int?], _ which: (Int) -> Bool) {
            while total(widths) > limit {
                guard
                    let index = widths.indices
                        .filter({ which($0) && columns[$0].shrinkable && (widths[$0] ?? 0) > columns[$0].minimumWidth })
                        .max(by: { (widths[$0] ?? 0) < (widths[$1] ?? 0) })
                else { return }
                widths[index]! -= 1
            }
        }
        // The columns that may go are cut first, then go, least important first, each giving
        // its room back; only then are the columns that stay cut. So a score or a name is
        // never cut short while a venue or a streak is still shown.
        func spare(dropping dropped: Set<Int>) -> [Int?] {
            var widths = full.indices.map { dropped.contains($0) ? nil : full[$0] }
            cut(&widths) { columns[$0].dropRank != nil }
            return widths
        }
        var dropped: Set<Int> = []
        var widths = spare(dropping: dropped)
        let droppable = columns.indices.filter { columns[$0].dropRank != nil }.sorted { columns[$0].dropRank! < columns[$1].dropRank! }
        for index in droppable where total(widths) > limit {
            dropped.insert(index)
            widths = spare(dropping: dropped)
        }
        cut(&widths) { _ in true }
        return widths
    }

    public func render(width limit: Int? = nil, style: TerminalStyle = .plain, header: Bool = true) -> String {
        let widths = widths(limit: limit)
        func line(_ cells: [Cell], styled: Bool) -> String {
            var parts: [String] = []
            for (index, column) in columns.enumerated() {
                guard let width = widths[index] else { continue }
                let cell = index < cells.count ? cells[index] : Cell("")
                let text = DisplayWidth.pad(DisplayWidth.truncate(cell.text, to: width), to: width, right: column.alignment == .right)
                parts.append(styled ? (cell.style?(text) ?? text) : text)
            }
            var joined = parts.joined(separator: separator)
            // Trailing spaces of the last column only matter under a row background.
            if !styled || !style.isEnabled { joined = String(joined.reversed().drop { $0 == " " }.reversed()) }
            return joined
        }
        var lines: [String] = []
        if header {
            lines.append(style.bold(line(columns.map { Cell($0.header) }, styled: false)))
        }
        for row in rows {
            let styled = style.isEnabled
            let text = line(row.cells, styled: styled)
            lines.append(styled ? (row.style?(text) ?? text) : text)
        }
        return lines.joined(separator: "\n")
    }
}
