import Testing

@testable import InterludeServer

/// The beacon sender's hold during verification bursts: it holds while
/// verifications keep coming, never longer than its limit per burst, and a
/// quiet gap ends the burst.
@Suite struct BurstHoldTests {
    /// What `hold` answers at each (now, last verification) in turn.
    private static func answers(_ steps: [(Double, Double?)]) -> [Bool] {
        var hold = BurstHold(gap: 0.05, limit: 2)
        return steps.map { hold.holds(at: $0.0, lastArrival: $0.1) }
    }

    @Test func noVerificationOrAQuietGapHoldsNothing() {
        #expect(Self.answers([(10, nil), (10, 9.9)]) == [false, false])
    }

    @Test func verificationsComingCloseTogetherHoldSendingUpToTheLimit() {
        // The limit is per burst: past it, sending goes on while the burst lasts.
        let steps: [(Double, Double?)] = [(10, 9.99), (11, 10.99), (11.99, 11.98), (12, 11.99), (13, 12.99)]
        #expect(Self.answers(steps) == [true, true, true, false, false])
    }

    @Test func aQuietGapEndsTheBurstAndTheNextOneHoldsAgain() {
        let steps: [(Double, Double?)] = [(10, 9.99), (12.5, 12.49), (12.6, 12.49), (13, 12.99), (14.9, 14.89)]
        #expect(Self.answers(steps) == [true, false, false, true, true])
    }
}
