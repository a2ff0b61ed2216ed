import CLibical
import FaceoffBase
import FaceoffKit
import Foundation

/// Serialises feeds with libical, which does the escaping, the 75-octet line folding and the
/// CRLF line endings that calendar clients insist on. Every libical object is created, used
/// and freed inside `serialize`, on the calling thread.
public enum CalendarBuilder {
    public static let productID = "-//Faceoff//Faceoff \(FaceoffInfo.version)//EN"

    public static func serialize(_ feed: CalendarFeed) throws(CalendarError) -> String {
        faceoff_ical_clear_errno()
        guard let calendar = icalcomponent_new(ICAL_VCALENDAR_COMPONENT) else {
            throw CalendarError("libical could not create a calendar")
        }
        defer { icalcomponent_free(calendar) }

        add(calendar, icalproperty_new_prodid(productID))
        add(calendar, icalproperty_new_version("2.0"))
        add(calendar, icalproperty_new_calscale("GREGORIAN"))
        add(calendar, icalproperty_new_name(clean(feed.title)))
        add(calendar, x("X-WR-CALNAME", clean(feed.title)))
        add(calendar, icalproperty_new_description(clean(feed.description)))
        add(calendar, x("X-WR-CALDESC", clean(feed.description)))
        let refreshSeconds = Int32(clamping: feed.refresh.components.seconds)
        if let refresh = icalproperty_new_refreshinterval(icaldurationtype_from_int(refreshSeconds)) {
            icalproperty_add_parameter(refresh, icalparameter_new_value(ICAL_VALUE_DURATION))
            add(calendar, refresh)
        }
        add(calendar, x("X-PUBLISHED-TTL", durationText(refreshSeconds)))
        if let color = feed.color {
            add(calendar, icalproperty_new_color(color.nearestCSSColorName))
            add(calendar, x("X-APPLE-CALENDAR-COLOR", color.hex))
        }

        for event in feed.events {
            guard let vevent = icalcomponent_new(ICAL_VEVENT_COMPONENT) else {
                throw CalendarError("libical could not create an event")
            }
            add(vevent, icalproperty_new_uid(clean(event.uid)))
            add(vevent, icalproperty_new_dtstamp(utc(event.lastModified)))
            let allDay = event.allDay == true
            add(vevent, icalproperty_new_dtstart(allDay ? day(event.start) : utc(event.start)))
            add(vevent, icalproperty_new_dtend(allDay ? day(event.end) : utc(event.end)))
            add(vevent, icalproperty_new_summary(clean(event.summary)))
            add(vevent, icalproperty_new_description(clean(event.description)))
            if let location = event.location { add(vevent, icalproperty_new_location(clean(location))) }
            if let latitude = event.latitude, let longitude = event.longitude {
                add(vevent, icalproperty_new_geo(icalgeotype(lat: latitude, lon: longitude)))
            }
            if let url = event.url { add(vevent, icalproperty_new_url(clean(url))) }
            for category in event.categories { add(vevent, icalproperty_new_categories(clean(category))) }
            add(vevent, icalproperty_new_status(status(event.status)))
            add(vevent, icalproperty_new_sequence(Int32(clamping: event.sequence)))
            add(vevent, icalproperty_new_lastmodified(utc(event.lastModified)))
            add(vevent, icalproperty_new_transp(ICAL_TRANSP_TRANSPARENT))
            for seconds in event.reminders where event.status != .cancelled && !allDay {
                guard let alarm = icalcomponent_new(ICAL_VALARM_COMPONENT) else { continue }
                add(alarm, icalproperty_new_action(ICAL_ACTION_DISPLAY))
                var trigger = icaltriggertype()
                trigger.duration = icaldurationtype_from_int(-Int32(clamping: seconds))
                add(alarm, icalproperty_new_trigger(trigger))
                add(alarm, icalproperty_new_description(clean(event.summary)))
                icalcomponent_add_component(vevent, alarm)
            }
            icalcomponent_add_component(calendar, vevent)
        }

        let problem = faceoff_ical_errno()
        if problem != ICAL_NO_ERROR {
            throw CalendarError(
                "libical reported an error while building \(feed.name).ics: \(String(cString: icalerror_strerror(problem)))")
        }
        guard let text = icalcomponent_as_ical_string_r(calendar) else {
            throw CalendarError("libical could not serialise \(feed.name).ics")
        }
        defer { icalmemory_free_buffer(text) }
        return String(cString: text)
    }

    /// Text from the API with the control characters RFC 5545 forbids in TEXT removed (a NUL
    /// would also cut the C string short). Line breaks and tabs stay; libical escapes them.
    static func clean(_ text: String) -> String {
        // By bytes: in UTF-8 these characters are single bytes that never occur inside another
        // character's encoding.
        func isControl(_ byte: UInt8) -> Bool { byte < 0x20 && byte != 0x0A && byte != 0x09 || byte == 0x7F }
        let found =
            text.utf8.withContiguousStorageIfAvailable { bytes in bytes.contains(where: isControl) }
            ?? text.utf8.contains(where: isControl)
        guard found else { return text }
        return String(
            String.UnicodeScalarView(text.unicodeScalars.filter { !($0.value < 0x20 && $0 != "\n" && $0 != "\t") && $0.value != 0x7F }))
    }

    private static func add(_ component: OpaquePointer?, _ property: OpaquePointer?) {
        guard let component, let property else { return }
        icalcomponent_add_property(component, property)
    }

    /// An X- property. libical writes X- values without TEXT escaping of commas and
    /// semicolons (and doubles any backslash we add), so the value is made safe instead:
    /// commas and semicolons become " ·", backslashes go, line breaks become spaces.
    private static func x(_ name: String, _ value: String) -> OpaquePointer? {
        let property = icalproperty_new_x(xSafe(value))
        icalproperty_set_x_name(property, name)
        return property
    }

    static func xSafe(_ text: String) -> String {
        var safe = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case ",", ";": safe += " ·"
            case "\\": continue
            case "\n", "\r": safe += " "
            default: safe.unicodeScalars.append(scalar)
            }
        }
        return safe
    }

    private static func utc(_ date: Date) -> icaltimetype {
        icaltime_from_timet_with_zone(time_t(date.timeIntervalSince1970.rounded(.down)), 0, icaltimezone_get_utc_timezone())
    }

    /// A date without a time (VALUE=DATE): the UTC day of `date`.
    private static func day(_ date: Date) -> icaltimetype {
        var time = utc(date)
        time.hour = 0
        time.minute = 0
        time.second = 0
        time.is_date = 1
        time.zone = nil
        return time
    }

    private static func status(_ status: CalendarEvent.Status) -> icalproperty_status {
        switch status {
        case .confirmed: ICAL_STATUS_CONFIRMED
        case .tentative: ICAL_STATUS_TENTATIVE
        case .cancelled: ICAL_STATUS_CANCELLED
        }
    }

    private static func durationText(_ seconds: Int32) -> String {
        let duration = icaldurationtype_from_int(seconds)
        guard let text = icaldurationtype_as_ical_string_r(duration) else { return "PT\(seconds)S" }
        defer { icalmemory_free_buffer(text) }
        return String(cString: text)
    }
}
