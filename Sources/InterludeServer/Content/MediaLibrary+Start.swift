import Foundation

extension MediaLibrary {
    /// What ``AdServer/start(_:)`` does for media: plans the catalog's media,
    /// makes what is missing when the configuration generates media (with
    /// progress through its hooks), then reads the library.
    static func prepare(_ configuration: AdServer.Configuration) throws(AdServerError) -> MediaLibrary {
        let logger = configuration.http.logger
        let directory = configuration.dataDirectory
        let plan = MediaPlan(
            catalog: configuration.catalog, dataDirectory: directory, fontFile: MediaGenerator.findFont())
        if configuration.generatesMedia {
            if plan.fontFile == nil {
                logger.message(.warning, "no font found (fc-match); media will carry no text")
            }
            do {
                let builder = try MediaBuilder.system(dataDirectory: directory)
                let specs = builder.missing(plan).specs
                let creativeIndex = Locked(0)
                let legacy = configuration.mediaProgress
                let hook = configuration.buildProgress
                let report = try builder.build(plan) { event in
                    hook(event)
                    guard event.kind == .creative, event.phase == .started,
                        let spec = specs.first(where: {
                            "\($0.height)p" == event.profile && $0.creativeID == event.item
                        })
                    else { return }
                    let index = creativeIndex.withLock { value in
                        value += 1
                        return value
                    }
                    legacy(index, specs.count, spec)
                }
                logger.message(
                    .info,
                    "media: \(report.made) made, \(report.reused) cached (\(String(format: "%.1f", report.seconds)) s)")
            } catch {
                throw AdServerError("media generation failed: \(error.message)")
            }
        }
        let library = MediaLibrary(catalog: configuration.catalog, plan: plan, dataDirectory: directory)
        if configuration.generatesMedia && !library.isComplete {
            throw AdServerError("media generation left renditions missing in \(directory.path)")
        }
        return library
    }
}
