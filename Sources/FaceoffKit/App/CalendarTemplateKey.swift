/// Every key the calendar templates can use (the title's and the description's; each
/// context fills only its own): the templates' contract, parsed with the templates, filled
/// by the calendar's event builders.
package enum CalendarTemplateKey: Int, CaseIterable {
    case status, tbd, postponed, cancelled, live, final, showScore, perspective, home, away, homeTeam, awayScore,
        homeScore, endedIn, preseason, playoffs, us, them, usScore, themScore, result, seriesTag, ifNecessary
    case awayFull, homeFull, awayAbbrev, homeAbbrev, gameType, tvNational, tvHome, tvAway, url, series, venue, city,
        finalLine, records

    /// The template name: snake case.
    package var name: String {
        var name = ""
        for character in "\(self)" {
            if character.isUppercase { name += "_" + character.lowercased() } else { name.append(character) }
        }
        return name
    }

    /// The keys as the fast renderer's slots, in case order.
    package static let flatKeys = FlatKeys(allCases.map(\.name))
}
