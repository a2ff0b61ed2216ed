import FaceoffAPI

extension APIService {
    /// ESPN's public site API, for the NBA (the config's `espn_base`). Its paths carry their
    /// own `apis/site/v2/…` or `apis/v2/…` under this base.
    public static let espn = APIService(
        name: "ESPN's site API", setting: "`espn_base` in the config (or --espn-base)", defaultBase: "https://site.api.espn.com/")
}
