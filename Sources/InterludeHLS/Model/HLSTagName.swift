/// Tag names of RFC 8216bis and of the ad markers found in the wild, without
/// the leading `#`.
public enum HLSTagName {
    /// `#EXTM3U`.
    public static let header = "EXTM3U"
    /// `#EXT-X-VERSION`.
    public static let version = "EXT-X-VERSION"
    /// `#EXT-X-INDEPENDENT-SEGMENTS`.
    public static let independentSegments = "EXT-X-INDEPENDENT-SEGMENTS"
    /// `#EXT-X-START`.
    public static let start = "EXT-X-START"
    /// `#EXT-X-DEFINE`.
    public static let define = "EXT-X-DEFINE"
    /// `#EXT-X-TARGETDURATION`.
    public static let targetDuration = "EXT-X-TARGETDURATION"
    /// `#EXT-X-MEDIA-SEQUENCE`.
    public static let mediaSequence = "EXT-X-MEDIA-SEQUENCE"
    /// `#EXT-X-DISCONTINUITY-SEQUENCE`.
    public static let discontinuitySequence = "EXT-X-DISCONTINUITY-SEQUENCE"
    /// `#EXT-X-PLAYLIST-TYPE`.
    public static let playlistType = "EXT-X-PLAYLIST-TYPE"
    /// `#EXT-X-I-FRAMES-ONLY`.
    public static let iFramesOnly = "EXT-X-I-FRAMES-ONLY"
    /// `#EXT-X-ENDLIST`.
    public static let endList = "EXT-X-ENDLIST"
    /// `#EXTINF`.
    public static let info = "EXTINF"
    /// `#EXT-X-BYTERANGE`.
    public static let byteRange = "EXT-X-BYTERANGE"
    /// `#EXT-X-DISCONTINUITY`.
    public static let discontinuity = "EXT-X-DISCONTINUITY"
    /// `#EXT-X-KEY`.
    public static let key = "EXT-X-KEY"
    /// `#EXT-X-MAP`.
    public static let map = "EXT-X-MAP"
    /// `#EXT-X-PROGRAM-DATE-TIME`.
    public static let programDateTime = "EXT-X-PROGRAM-DATE-TIME"
    /// `#EXT-X-GAP`.
    public static let gap = "EXT-X-GAP"
    /// `#EXT-X-BITRATE`.
    public static let bitrate = "EXT-X-BITRATE"
    /// `#EXT-X-PART`.
    public static let part = "EXT-X-PART"
    /// `#EXT-X-PART-INF`.
    public static let partInf = "EXT-X-PART-INF"
    /// `#EXT-X-SERVER-CONTROL`.
    public static let serverControl = "EXT-X-SERVER-CONTROL"
    /// `#EXT-X-PRELOAD-HINT`.
    public static let preloadHint = "EXT-X-PRELOAD-HINT"
    /// `#EXT-X-RENDITION-REPORT`.
    public static let renditionReport = "EXT-X-RENDITION-REPORT"
    /// `#EXT-X-SKIP`.
    public static let skip = "EXT-X-SKIP"
    /// `#EXT-X-DATERANGE`.
    public static let dateRange = "EXT-X-DATERANGE"
    /// `#EXT-X-MEDIA`.
    public static let media = "EXT-X-MEDIA"
    /// `#EXT-X-STREAM-INF`.
    public static let streamInf = "EXT-X-STREAM-INF"
    /// `#EXT-X-I-FRAME-STREAM-INF`.
    public static let iFrameStreamInf = "EXT-X-I-FRAME-STREAM-INF"
    /// `#EXT-X-SESSION-DATA`.
    public static let sessionData = "EXT-X-SESSION-DATA"
    /// `#EXT-X-SESSION-KEY`.
    public static let sessionKey = "EXT-X-SESSION-KEY"
    /// `#EXT-X-CONTENT-STEERING`.
    public static let contentSteering = "EXT-X-CONTENT-STEERING"
    /// `#EXT-X-CUE-OUT`.
    public static let cueOut = "EXT-X-CUE-OUT"
    /// `#EXT-X-CUE-OUT-CONT`.
    public static let cueOutCont = "EXT-X-CUE-OUT-CONT"
    /// `#EXT-X-CUE-IN`.
    public static let cueIn = "EXT-X-CUE-IN"
    /// `#EXT-OATCLS-SCTE35`.
    public static let oatclsSCTE35 = "EXT-OATCLS-SCTE35"
    /// `#EXT-X-SPLICEPOINT-SCTE35`.
    public static let splicePointSCTE35 = "EXT-X-SPLICEPOINT-SCTE35"
    /// `#EXT-X-ASSET`.
    public static let asset = "EXT-X-ASSET"
    /// `#EXT-X-CUE` (Adobe markers: `TYPE=SpliceOut,ID=…,DURATION=…,TIME=…`,
    /// as AWS Elemental MediaLive's "Adobe" style and Adobe Primetime write them).
    public static let adobeCue = "EXT-X-CUE"
    /// `#EXT-X-CUE-CONT` (Adobe Primetime: `ID=…,AVAIL-DUR-ELAPSED=…` on each
    /// later segment of the break).
    public static let adobeCueCont = "EXT-X-CUE-CONT"
    /// `#EXT-X-SCTE35` (`CUE="<base64 splice_info_section>"`, with
    /// `CUE-OUT=YES|CONT|NO`, `CUE-IN=YES`, `DURATION`, `ELAPSED`, `ID`).
    public static let scte35 = "EXT-X-SCTE35"

}
