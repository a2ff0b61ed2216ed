import FaceoffBase
import Foundation
import Testing

@testable import FaceoffKit
@testable import FaceoffNHL

@Suite(.timeLimit(.minutes(5))) struct TeamFactsTests {
    /// The 2025-26 clubs, as the brief for this table lists them.
    static let expectedAbbrevs: Set<String> = [
        "ANA", "BOS", "BUF", "CGY", "CAR", "CHI", "COL", "CBJ", "DAL", "DET", "EDM",
        "FLA", "LAK", "MIN", "MTL", "NSH", "NJD", "NYI", "NYR", "OTT", "PHI", "PIT",
        "SJS", "SEA", "STL", "TBL", "TOR", "UTA", "VAN", "VGK", "WSH", "WPG",
    ]

    // MARK: Table

    @Test func hasThe32CurrentClubsOnceEachInAbbreviationOrder() {
        let abbrevs = TeamFactsTable.all.map(\.abbrev)
        #expect(abbrevs.count == 32)
        #expect(Set(abbrevs).count == 32)
        #expect(Set(abbrevs) == Self.expectedAbbrevs)
        #expect(abbrevs == abbrevs.sorted())
    }

    @Test func lookupIgnoresCaseAndSurroundingSpace() throws {
        #expect(TeamFactsTable.facts(for: "tor")?.fullName == "Toronto Maple Leafs")
        #expect(TeamFactsTable.facts(for: " Mtl ")?.commonName == "Canadiens")
        #expect(TeamFactsTable.facts(for: "ARI") == nil)
        #expect(TeamFactsTable.facts(for: "") == nil)
        for facts in TeamFactsTable.all {
            #expect(TeamFactsTable.facts(for: facts.abbrev.lowercased()) == facts)
        }
    }

    @Test func utahIsTheMammothInSaltLakeCity() throws {
        let utah = try #require(TeamFactsTable.facts(for: "UTA"))
        #expect(utah.fullName == "Utah Mammoth")
        #expect(utah.arena.name == "Delta Center")
        #expect(utah.arena.city == "Salt Lake City, UT")
        #expect(utah.timeZone == "America/Denver")
    }

    @Test func namesAndCitiesAreFilledIn() {
        for facts in TeamFactsTable.all {
            #expect(!facts.fullName.isEmpty && !facts.placeName.isEmpty && !facts.commonName.isEmpty)
            #expect(facts.fullName.hasSuffix(facts.commonName), "\(facts.abbrev)")
            #expect(!facts.arena.name.isEmpty)
            // "City, XX": a two-letter state or province code after the comma.
            let parts = facts.arena.city.components(separatedBy: ", ")
            #expect(
                parts.count == 2 && parts[1].count == 2 && parts[1] == parts[1].uppercased(),
                "\(facts.abbrev): \(facts.arena.city)")
        }
    }

    // MARK: Geography and time zones

    @Test func everyArenaIsInNorthAmerica() {
        for facts in TeamFactsTable.all {
            let arena = facts.arena
            #expect((24.0...72.0).contains(arena.latitude), "\(facts.abbrev) latitude \(arena.latitude)")
            #expect((-170.0 ... -50.0).contains(arena.longitude), "\(facts.abbrev) longitude \(arena.longitude)")
        }
    }

    @Test func timeZonesExistAndMatchTheLongitudeBand() throws {
        let eastern: Set<String> = ["America/New_York", "America/Toronto", "America/Detroit"]
        let central: Set<String> = ["America/Chicago", "America/Winnipeg"]
        let westOf100: Set<String> = [
            "America/Denver", "America/Edmonton", "America/Los_Angeles", "America/Vancouver",
        ]
        for facts in TeamFactsTable.all {
            let longitude = facts.arena.longitude
            #expect(facts.timeZone != "America/Phoenix", "\(facts.abbrev)")
            #expect(TimeZone(identifier: facts.timeZone) != nil, "\(facts.abbrev): \(facts.timeZone)")
            if longitude < -100 {
                #expect(westOf100.contains(facts.timeZone), "\(facts.abbrev): \(facts.timeZone)")
            } else if longitude < -85 {
                #expect(central.contains(facts.timeZone), "\(facts.abbrev): \(facts.timeZone)")
            } else {
                #expect(eastern.contains(facts.timeZone), "\(facts.abbrev): \(facts.timeZone)")
            }
        }
    }

    @Test func standardTimeOffsetIsWithinAnHourOfSolarTime() throws {
        // 15 January 2026, 12:00 UTC: standard time everywhere in the league.
        let winter = Date(timeIntervalSince1970: 1_768_478_400)
        for facts in TeamFactsTable.all {
            let zone = try #require(TimeZone(identifier: facts.timeZone))
            let offsetHours = Double(zone.secondsFromGMT(for: winter)) / 3600
            let solarHours = facts.arena.longitude / 15
            #expect(abs(offsetHours - solarHours) < 1.0, "\(facts.abbrev): UTC\(offsetHours) at \(facts.arena.longitude)")
        }
    }

    // MARK: Venue names

    @Test func findsArenasByTheNamesTheAPIUses() throws {
        #expect(TeamFactsTable.arena(named: "Centre Bell")?.city == "Montréal, QC")
        #expect(TeamFactsTable.arena(named: "Bell Centre")?.city == "Montréal, QC")
        #expect(TeamFactsTable.arena(named: "centre bell")?.name == "Centre Bell")
        #expect(TeamFactsTable.arena(named: "Scotiabank Arena")?.city == "Toronto, ON")
        #expect(TeamFactsTable.arena(named: "PNC Arena")?.name == "Lenovo Center")
        #expect(TeamFactsTable.arena(named: "Xcel Energy Center")?.name == "Grand Casino Arena")
        #expect(TeamFactsTable.arena(named: "Amalie Arena")?.name == "Benchmark International Arena")
        #expect(TeamFactsTable.arena(named: "Wells Fargo Center")?.name == "Xfinity Mobile Arena")
        #expect(TeamFactsTable.arena(named: "SAP Center")?.name == "SAP Center at San Jose")
        #expect(TeamFactsTable.arena(named: "Centre Canadian Tire")?.name == "Canadian Tire Centre")
        #expect(TeamFactsTable.arena(named: "  T-MOBILE  arena ")?.name == "T-Mobile Arena")
    }

    @Test func everyCurrentArenaNameFindsItself() {
        for facts in TeamFactsTable.all {
            #expect(TeamFactsTable.arena(named: facts.arena.name) == facts.arena, "\(facts.arena.name)")
        }
    }

    @Test func aliasesNeverCollide() {
        let aliasCount = TeamFactsTable.venueAliases.values.reduce(0) { $0 + $1.count }
        #expect(TeamFactsTable.venueIndex.count == 32 + aliasCount)
        for (abbrev, aliases) in TeamFactsTable.venueAliases {
            #expect(TeamFactsTable.facts(for: abbrev) != nil, "\(abbrev)")
            for alias in aliases {
                #expect(TeamFactsTable.arena(named: alias) == TeamFactsTable.facts(for: abbrev)?.arena, "\(alias)")
            }
        }
    }

    @Test func neutralAndUnknownVenuesAreNil() {
        #expect(TeamFactsTable.arena(named: "O2 Arena Prague") == nil)
        #expect(TeamFactsTable.arena(named: "Raymond James Stadium") == nil)
        #expect(TeamFactsTable.arena(named: "") == nil)
    }

    // MARK: Colours

    @Test func hexRoundTripsAndParsingRejectsJunk() {
        #expect(RGB(hex: "#00205b").hex == "#00205B")
        #expect(RGB(hex: "AF1E2D") == RGB(red: 0xAF, green: 0x1E, blue: 0x2D))
        #expect(RGB(parsing: "#12345") == nil)
        #expect(RGB(parsing: "#12345G") == nil)
        #expect(RGB(parsing: "+12345") == nil)
        #expect(RGB(parsing: "#1234567") == nil)
        for facts in TeamFactsTable.all {
            #expect(RGB(hex: facts.primary.hex) == facts.primary)
            #expect(facts.primary != facts.secondary, "\(facts.abbrev)")
        }
    }

    @Test func luminanceEndpoints() {
        #expect(RGB.white.relativeLuminance == 1.0)
        #expect(RGB.black.relativeLuminance == 0.0)
        #expect(abs(RGB(hex: "#FF0000").relativeLuminance - 0.2126) < 1e-12)
        #expect(abs(RGB.white.contrastRatio(with: .black) - 21) < 1e-12)
    }

    @Test func textColourChoice() throws {
        let bruins = try #require(TeamFactsTable.facts(for: "BOS"))
        let leafs = try #require(TeamFactsTable.facts(for: "TOR"))
        #expect(bruins.primary == RGB(hex: "#FFB81C"))
        #expect(leafs.primary == RGB(hex: "#00205B"))
        #expect(bruins.primary.prefersDarkText)
        #expect(!leafs.primary.prefersDarkText)
        #expect(RGB.white.prefersDarkText)
        #expect(!RGB.black.prefersDarkText)
    }

    @Test func nearestCSSColourNames() {
        // Expected values were computed independently (python3, same redmean formula over the
        // 147 keywords). The runners-up are far behind, so these are not near-ties:
        // #FFB81C: orange 3012, gold 5412; #00205B: midnightblue 2776, navy 8198.
        #expect(RGB(hex: "#FF0000").nearestCSSColorName == "red")
        #expect(RGB(hex: "#FFB81C").nearestCSSColorName == "orange")
        #expect(RGB(hex: "#00205B").nearestCSSColorName == "midnightblue")
        // Synonyms resolve to the alphabetically first name.
        #expect(RGB(hex: "#00FFFF").nearestCSSColorName == "aqua")
        #expect(RGB(hex: "#808080").nearestCSSColorName == "gray")
    }

    @Test func cssKeywordListIsTheFull147() {
        let names = RGB.cssColorKeywords.map(\.name)
        #expect(names.count == 147)
        #expect(Set(names).count == 147)
        #expect(names == names.sorted())
        for keyword in RGB.cssColorKeywords {
            #expect(keyword.color.nearestCSSColorName <= keyword.name)
        }
    }
}
