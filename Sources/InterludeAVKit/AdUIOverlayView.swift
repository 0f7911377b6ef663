#if canImport(UIKit) && canImport(AVFoundation)
    import Interlude
    import UIKit

    /// The ad UI (Learn More, Skip, countdown or ad label) bound to
    /// ``AdUIState``: the guide's custom UI when the ad allows it, else the
    /// built-in UI IMA would draw ("Ad 1 of 2 · 0:12", "Skip in 5" then
    /// "Skip Ad", "Learn more"), so a skippable ad can always be skipped.
    /// Add it over the video view and set ``adsManager``; call ``apply(_:)``
    /// from `adsManager(_:didUpdate:)`.
    @MainActor
    public final class AdUIOverlayView: UIView {
        public let learnMoreButton = UIButton(type: .custom)
        /// A custom-type button, so its title changes without blinking.
        public let skipButton = UIButton(type: .custom)
        public let countdownLabel = UILabel()
        public weak var adsManager: AdsManager?

        public override init(frame: CGRect) {
            super.init(frame: frame)
            for view in [learnMoreButton, skipButton, countdownLabel] as [UIView] {
                view.translatesAutoresizingMaskIntoConstraints = false
                view.layer.zPosition = .greatestFiniteMagnitude
                addSubview(view)
            }
            for button in [learnMoreButton, skipButton] {
                button.backgroundColor = UIColor.black.withAlphaComponent(0.6)
                button.setTitleColor(.white, for: .normal)
                button.setTitleColor(.lightGray, for: .disabled)
                button.contentEdgeInsets = UIEdgeInsets(top: 6, left: 12, bottom: 6, right: 12)
            }
            countdownLabel.textColor = .white
            countdownLabel.font = .monospacedDigitSystemFont(ofSize: 14, weight: .medium)
            // tvOS buttons are pressed with the remote's Select: primaryActionTriggered, not a touch.
            #if os(tvOS)
                let pressed = UIControl.Event.primaryActionTriggered
            #else
                let pressed = UIControl.Event.touchUpInside
            #endif
            learnMoreButton.addTarget(self, action: #selector(learnMoreTapped), for: pressed)
            skipButton.addTarget(self, action: #selector(skipTapped), for: pressed)
            NSLayoutConstraint.activate([
                learnMoreButton.topAnchor.constraint(equalTo: safeAreaLayoutGuide.topAnchor, constant: 12),
                learnMoreButton.trailingAnchor.constraint(equalTo: safeAreaLayoutGuide.trailingAnchor, constant: -12),
                countdownLabel.leadingAnchor.constraint(equalTo: safeAreaLayoutGuide.leadingAnchor, constant: 12),
                countdownLabel.bottomAnchor.constraint(equalTo: safeAreaLayoutGuide.bottomAnchor, constant: -12),
                skipButton.trailingAnchor.constraint(equalTo: safeAreaLayoutGuide.trailingAnchor, constant: -12),
                skipButton.bottomAnchor.constraint(equalTo: safeAreaLayoutGuide.bottomAnchor, constant: -12),
            ])
            apply(.hidden)
        }

        public required init?(coder: NSCoder) { nil }

        /// Shows `state`, the custom or the built-in UI (both fill the same
        /// fields); hidden between ads.
        public func apply(_ state: AdUIState) {
            isHidden = !(state.isCustomUIVisible || state.isBuiltInUIVisible)
            learnMoreButton.isHidden = !state.learnMoreVisible
            learnMoreButton.setTitle(state.learnMoreTitle, for: .normal)
            countdownLabel.isHidden = !state.countdownVisible
            countdownLabel.text = state.countdownText
            skipButton.isHidden = !state.skipButtonVisible
            skipButton.isEnabled = state.skipButtonEnabled
            UIView.performWithoutAnimation {
                skipButton.setTitle(state.skipButtonTitle, for: .normal)
                skipButton.layoutIfNeeded()
            }
        }

        /// Lets touches outside the buttons reach the video (taps resume a paused ad).
        public override func hitTest(_ point: CGPoint, with event: UIEvent?) -> UIView? {
            let hit = super.hitTest(point, with: event)
            return hit === self ? nil : hit
        }

        @objc private func learnMoreTapped() { adsManager?.clicked() }
        @objc private func skipTapped() { adsManager?.skip() }
    }
#endif
