import InterludeServerTestSupport
import InterludeVAST
import Testing

@testable import InterludeServer

@Suite struct DocumentTemplateTests {
    let decisioner = AdDecisioner(catalog: TestAdServer.catalog)

    @Test(arguments: [
        AdRequestOptions(), AdRequestOptions(podSize: 3), AdRequestOptions(skippable: true, version: "3.0"),
        AdRequestOptions(uiHideable: false, adIDs: ["bravo", "alpha"], version: "4.1"),
    ])
    func splicedVASTEqualsADirectWrite(options: AdRequestOptions) throws {
        let template = try DocumentTemplate { links throws(HTTPError) in
            VASTWriter().write(try decisioner.vast(options, links: links))
        }
        let links = ServerLinks(baseURL: "http://127.0.0.1:8080", session: "s-1.x_y")
        let direct = VASTWriter().write(try decisioner.vast(options, links: links))
        #expect(
            String(decoding: template.render(baseURL: links.baseURL, session: links.session), as: UTF8.self) == direct)
    }

    @Test func splicedVMAPEqualsADirectWrite() throws {
        let options = AdRequestOptions(embed: true)
        let template = try DocumentTemplate { links throws(HTTPError) in
            VASTWriter().write(try decisioner.vmap(options, links: links))
        }
        let links = ServerLinks(baseURL: "http://[::1]:9", session: "abc")
        let direct = VASTWriter().write(try decisioner.vmap(options, links: links))
        #expect(
            String(decoding: template.render(baseURL: links.baseURL, session: links.session), as: UTF8.self) == direct)
    }

    @Test func decisioningErrorsAreNotCached() throws {
        let cache = TemplateCache()
        let key = TemplateCache.Key(route: "vast", options: AdRequestOptions(adIDs: ["nope"]))
        #expect(throws: HTTPError.self) {
            try cache.template(key) { links throws(HTTPError) in
                VASTWriter().write(try decisioner.vast(key.options, links: links))
            }
        }
    }

    @Test func twoSessionsGetTheirOwnURLsFromOneTemplate() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let first = try VASTParser().parseVAST(try Loopback.get("/vast?session=one", port: server.port).data).document
        let second = try VASTParser().parseVAST(try Loopback.get("/vast?session=two", port: server.port).data).document
        #expect(first.ads[0].inLine?.impressions.first?.url.contains("/track/one/") == true)
        #expect(second.ads[0].inLine?.impressions.first?.url.contains("/track/two/") == true)
        #expect(second.ads[0].inLine?.adServingID == "two-alpha")
    }
}
