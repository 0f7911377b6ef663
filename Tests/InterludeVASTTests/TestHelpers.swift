import Foundation
import InterludeTestSupport
import InterludeVAST
import Testing

/// Parses a corpus file as VAST (lenient).
func corpusVAST(_ path: String, mode: VASTParser.Mode = .lenient) throws -> VASTDocument {
    try VASTParser(options: .init(mode: mode)).parseVAST(Corpus.data(path)).document
}

/// Parses a corpus file as VMAP (lenient).
func corpusVMAP(_ path: String) throws -> VMAPDocument {
    try VASTParser().parseVMAP(Corpus.data(path)).document
}

/// Parses XML text and returns the thrown VAST error, if any.
func parseError(_ xml: String, options: VASTParser.Options = .init()) -> VASTError? {
    do {
        _ = try VASTParser(options: options).parse(Data(xml.utf8))
        return nil
    } catch {
        return error
    }
}

func parse(_ xml: String, mode: VASTParser.Mode = .lenient) throws -> VASTParseResult<AdDocument> {
    try VASTParser(options: .init(mode: mode)).parse(Data(xml.utf8))
}

func parseVAST(_ xml: String, mode: VASTParser.Mode = .lenient) throws -> VASTDocument {
    try VASTParser(options: .init(mode: mode)).parseVAST(Data(xml.utf8)).document
}
