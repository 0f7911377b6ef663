#if canImport(UIKit) && canImport(AVFoundation)
    import AVFoundation
    import Interlude
    import UIKit

    extension AdDisplayContainer {
        /// A container over `adContainer`, IMA's
        /// `initWithAdContainer:viewController:companionSlots:`: client-side
        /// ads play in an `AVPlayer` of their own, drawn by a view added to
        /// `adContainer` that fills it and lets touches through (the SDK's
        /// player, as IMA's). A pod-serving stream plays in the stream
        /// request's own `videoDisplay` (the app's player) instead, as in IMA.
        /// `viewController` is not kept: click-throughs open through the
        /// manager's `linkOpener` (or the system), so no view controller is
        /// presented over the app's.
        public convenience init(
            adContainer: UIView, viewController: UIViewController?, companionSlots: [CompanionAdSlot]?
        ) {
            let playerView = AdPlayerView(frame: adContainer.bounds)
            playerView.autoresizingMask = [.flexibleWidth, .flexibleHeight]
            playerView.isUserInteractionEnabled = false
            adContainer.addSubview(playerView)
            let player = AVPlayer()
            playerView.playerLayer.player = player
            self.init(videoDisplay: AVPlayerVideoDisplay(player: player), companionSlots: companionSlots ?? [])
        }
    }

    /// A view whose layer is an `AVPlayerLayer`, so the ad's video follows
    /// the container's size without layout code.
    final class AdPlayerView: UIView {
        override class var layerClass: AnyClass { AVPlayerLayer.self }

        // The layer class above makes `layer` an AVPlayerLayer.
        var playerLayer: AVPlayerLayer { layer as! AVPlayerLayer }
    }
#endif
