Feature: Points, cotos and the match
  A point (a "partida") is won by reaching 101, in the first hand or de vueltas. Three points
  make a coto; the match is the number of cotos agreed before play: one in Lascuarenta's
  rules (S002, S003), customarily two in S000 and S004. After each hand the winner of its last
  trick deals the next one. Most positions are the last trick of a first hand, completed with
  how the match stands; mano a mano the cotos are counted per player.

  Rule: MATCH-01 Reaching 101 wins one point of the match

    @MATCH-01 @S000 @S002 @S003 @S004
    Scenario: Winning the first hand of a point adds one point to the side's match score
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | Ao |
        | seat 1 | 2o |
        | seat 2 | 4o |
        | seat 3 | 5o |
      And the card points so far are 85 for side 0 and 24 for side 1
      When these tricks are played:
        | Ao 2o 4o 5o |
      Then side 0 has 106 points in the hand
      And side 0 wins the point
      And the state field "match.points.0" is 1
      And the state field "match.points.1" is 0
      And the state field "match.cotos.0" is 0
      And the hand is over because of over_100 under rule SCORE-06

  Rule: MATCH-10 Points are counted, not hands: a point that needed a hand de vueltas is still one point

    # The first hand ends 100 to 30. The next deck puts 4c, Ac, 2c and 5c where they reach
    # seats 1, 2, 3 and 0 under both ways of dealing; the muestra is 2o.
    @MATCH-10 @MATCH-01 @PRE-10 @vueltas_end=automatic @S002 @S003 @thirty_malas_count=cards_plus_ultimas
    Scenario: A point won in the hand de vueltas counts once although it took two hands
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | Ao |
        | seat 1 | 2o |
        | seat 2 | 4o |
        | seat 3 | 5o |
      And the card points so far are 79 for side 0 and 30 for side 1
      When these tricks are played:
        | Ao 2o 4o 5o |
      Then the hand goes de vueltas
      And the state field "match.points.0" is 0
      When the next hand is dealt from the deck, top card first:
        | 4c Ae 2e 3e 4e |
        | Ac 2c 5e 6e 7e |
        | Se 5c Ce Re Ab |
        | 2b 3b 4b 5b 6b |
        | 7b Sb Cb Rb 2o |
        | ...            |
      Then seat 0 deals the next hand
      When these tricks are played:
        | 4c Ac 2c 5c |
      Then seat 2 wins the trick
      And side 0 wins the point
      And the state field "match.points.0" is 1
      And the state field "match.points.1" is 0
      And the hand is over because of vueltas_reached_101 under rule VUELTAS-07

  Rule: MATCH-02 Every point starts from zero: the totals of the last point are not carried

    @MATCH-02 @interpretation
    Scenario: After a point is won the next hand starts both sides from zero
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | Ao |
        | seat 1 | 2o |
        | seat 2 | 4o |
        | seat 3 | 5o |
      And the card points so far are 85 for side 0 and 24 for side 1
      When these tricks are played:
        | Ao 2o 4o 5o |
      Then side 0 wins the point
      And the hand is over because of over_100 under rule SCORE-06
      When the next hand is dealt from the deck, top card first:
        | ... |
      Then the phase is free
      And the state field "de_vueltas" is false
      And side 0 has 0 points in total
      And side 1 has 0 points in total
      And the state field "match.points.0" is 1

  Rule: MATCH-03 A coto goes to the first side, or player mano a mano, to win three points

    @MATCH-03 @points_per_coto=3 @S000 @S002 @S003 @S004
    Scenario: A side's third point completes a coto
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | Ao |
        | seat 1 | 2o |
        | seat 2 | 4o |
        | seat 3 | 5o |
      And the card points so far are 85 for side 0 and 24 for side 1
      And the match stands at 2 points to 1 and 0 cotos to 0
      When these tricks are played:
        | Ao 2o 4o 5o |
      Then side 0 wins the point
      And side 0 wins the coto
      And the state field "match.cotos.0" is 1
      And the state field "match.cotos.1" is 0
      And the hand is over because of over_100 under rule SCORE-06

    @MATCH-03 @points_per_coto=4 @interpretation
    Scenario: With four points to a coto a side's third point does not complete it
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | Ao |
        | seat 1 | 2o |
        | seat 2 | 4o |
        | seat 3 | 5o |
      And the card points so far are 85 for side 0 and 24 for side 1
      And the match stands at 2 points to 1 and 0 cotos to 0
      When these tricks are played:
        | Ao 2o 4o 5o |
      Then side 0 wins the point
      And no side wins the coto
      And the state field "match.points.0" is 3
      And the hand is over because of over_100 under rule SCORE-06

    @MATCH-03 @points_per_coto=4 @interpretation
    Scenario: With four points to a coto a side's fourth point completes it
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | Ao |
        | seat 1 | 2o |
        | seat 2 | 4o |
        | seat 3 | 5o |
      And the card points so far are 85 for side 0 and 24 for side 1
      And the match stands at 3 points to 1 and 0 cotos to 0
      When these tricks are played:
        | Ao 2o 4o 5o |
      Then side 0 wins the coto
      And the state field "match.cotos.0" is 1
      And the hand is over because of over_100 under rule SCORE-06

    @MATCH-03 @points_per_coto=5 @interpretation
    Scenario: With five points to a coto a side's fourth point does not complete it
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | Ao |
        | seat 1 | 2o |
        | seat 2 | 4o |
        | seat 3 | 5o |
      And the card points so far are 85 for side 0 and 24 for side 1
      And the match stands at 3 points to 0 and 0 cotos to 0
      When these tricks are played:
        | Ao 2o 4o 5o |
      Then no side wins the coto
      And the state field "match.points.0" is 4
      And the hand is over because of over_100 under rule SCORE-06

    @MATCH-03 @points_per_coto=5 @interpretation
    Scenario: With five points to a coto a side's fifth point completes it
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | Ao |
        | seat 1 | 2o |
        | seat 2 | 4o |
        | seat 3 | 5o |
      And the card points so far are 85 for side 0 and 24 for side 1
      And the match stands at 4 points to 2 and 0 cotos to 0
      When these tricks are played:
        | Ao 2o 4o 5o |
      Then side 0 wins the coto
      And the state field "match.cotos.0" is 1
      And the hand is over because of over_100 under rule SCORE-06

    @MATCH-03 @players=2 @points_per_coto=3 @S002 @S003 @S004
    Scenario: Mano a mano a player's third point wins him the coto
      Given a hand in the arrastre, trumps in bastos, seat 1 to lead:
        | seat 0 | Ao |
        | seat 1 | 2o |
      And the card points so far are 90 for side 0 and 19 for side 1
      And the match stands at 2 points to 1 and 0 cotos to 0
      When these tricks are played:
        | 2o Ao |
      Then side 0 wins the point
      And side 0 wins the coto
      And the state field "match.cotos.0" is 1
      And the state field "match.cotos.1" is 0
      And the hand is over because of over_100 under rule SCORE-06

  Rule: MATCH-04 A coto lasts from three to five points played

    @MATCH-04 @MATCH-03 @points_per_coto=3 @S000
    Scenario: At two points each the fifth point played decides the coto
      Given a hand in the arrastre, trumps in bastos, seat 1 to lead:
        | seat 0 | 5o |
        | seat 1 | Ao |
        | seat 2 | 2o |
        | seat 3 | 4o |
      And the card points so far are 24 for side 0 and 85 for side 1
      And the match stands at 2 points to 2 and 0 cotos to 0
      When these tricks are played:
        | Ao 2o 4o 5o |
      Then side 1 wins the point
      And side 1 wins the coto
      And the state field "match.cotos.1" is 1
      And the hand is over because of over_100 under rule SCORE-06

  Rule: MATCH-12 A new coto starts both sides from no points

    @MATCH-12 @points_per_coto=3 @cotos_to_win=2 @interpretation
    Scenario: After a coto the points of both sides go back to zero for the next coto
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | Ao |
        | seat 1 | 2o |
        | seat 2 | 4o |
        | seat 3 | 5o |
      And the card points so far are 85 for side 0 and 24 for side 1
      And the match stands at 2 points to 2 and 0 cotos to 0
      When these tricks are played:
        | Ao 2o 4o 5o |
      Then side 0 wins the coto
      And the hand is over because of over_100 under rule SCORE-06
      When the next hand is dealt from the deck, top card first:
        | ... |
      Then the state field "match.points.0" is 0
      And the state field "match.points.1" is 0
      And the state field "match.cotos.0" is 1
      And the state field "match.cotos.1" is 0

  Rule: MATCH-05 The match is played to an agreed number of cotos and ends when a side reaches it

    @MATCH-05 @cotos_to_win=1 @points_per_coto=3 @S000 @S002 @S003 @S004
    Scenario: Once a side has won the match no further play is accepted
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | Ao |
        | seat 1 | 2o |
        | seat 2 | 4o |
        | seat 3 | 5o |
      And the card points so far are 85 for side 0 and 24 for side 1
      And the match stands at 2 points to 0 and 0 cotos to 0
      When these tricks are played:
        | Ao 2o 4o 5o |
      Then side 0 wins the match
      And the phase is match_over
      And the state field "match.winner" is 0
      And the hand is over because of over_100 under rule SCORE-06
      And the next hand may not be dealt
      When a draw is attempted
      Then the action is refused as MATCH_OVER under rule MATCH-05

  Rule: MATCH-06 How many cotos win the match: two by custom, or a single coto

    @MATCH-06 @cotos_to_win=2 @points_per_coto=3 @S000 @S004
    Scenario: In a match of two cotos the first coto does not end the match
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | Ao |
        | seat 1 | 2o |
        | seat 2 | 4o |
        | seat 3 | 5o |
      And the card points so far are 85 for side 0 and 24 for side 1
      And the match stands at 2 points to 0 and 0 cotos to 0
      When these tricks are played:
        | Ao 2o 4o 5o |
      Then side 0 wins the coto
      And no side wins the match
      And the phase is hand_over
      And the state field "match.winner" is null
      And the hand is over because of over_100 under rule SCORE-06

    @MATCH-06 @cotos_to_win=2 @points_per_coto=3 @S000 @S004
    Scenario: In a match of two cotos the side that wins its second coto wins the match
      Given a hand in the arrastre, trumps in bastos, seat 1 to lead:
        | seat 0 | 5o |
        | seat 1 | Ao |
        | seat 2 | 2o |
        | seat 3 | 4o |
      And the card points so far are 24 for side 0 and 85 for side 1
      And the match stands at 1 points to 2 and 1 cotos to 1
      When these tricks are played:
        | Ao 2o 4o 5o |
      Then side 1 wins the coto
      And side 1 wins the match
      And the phase is match_over
      And the hand is over because of over_100 under rule SCORE-06

  Rule: MATCH-07 In Lascuarenta's rules the first coto ends the match

    @MATCH-07 @MATCH-06 @cotos_to_win=1 @points_per_coto=3 @S002 @S003
    Scenario: When the match is a single coto the side that completes it wins the match
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | Ao |
        | seat 1 | 2o |
        | seat 2 | 4o |
        | seat 3 | 5o |
      And the card points so far are 85 for side 0 and 24 for side 1
      And the match stands at 2 points to 1 and 0 cotos to 0
      When these tricks are played:
        | Ao 2o 4o 5o |
      Then side 0 wins the coto
      And side 0 wins the match
      And the phase is match_over
      And the hand is over because of over_100 under rule SCORE-06

  Rule: MATCH-09 Where tute is played, it wins the point on the spot

    @MATCH-09 @tute=wins_point @S002 @S003
    Scenario: A tute of Reyes wins the point at once and counts one point in the match
      Given a hand in the free phase, muestra 2b, seat 1 to lead:
        | seat 0 | Ro Rc Re Rb 4o 5c                             |
        | seat 1 | 3o 2c 6o 7o 6e 7e                             |
        | seat 2 | Ao Ac So Sc Se Ce                             |
        | seat 3 | 3c 4c Co Cc 4e 5e                             |
        | stock  | 2o 5o 6c 7c Ae 2e 3e Ab 3b 4b 5b 6b 7b Sb Cb  |
      When these tricks are played:
        | 2c Ac 4c 5c |
      And seat 0 sings tute of reyes
      Then side 0 wins the point
      And the phase is hand_over
      And the state field "match.points.0" is 1
      And the hand is over because of tute under rule CANTE-22

    @MATCH-09 @tute=none @S000
    Scenario: Where tute is not sung, four Reyes in hand give no point
      Given a hand in the free phase, muestra 2b, seat 1 to lead:
        | seat 0 | Ro Rc Re Rb 4o 5c                             |
        | seat 1 | 3o 2c 6o 7o 6e 7e                             |
        | seat 2 | Ao Ac So Sc Se Ce                             |
        | seat 3 | 3c 4c Co Cc 4e 5e                             |
        | stock  | 2o 5o 6c 7c Ae 2e 3e Ab 3b 4b 5b 6b 7b Sb Cb  |
      When these tricks are played:
        | 2c Ac 4c 5c |
      Then seat 0 may not sing tute of reyes
      When seat 0 tries to sing tute of reyes
      Then the action is refused as TUTE_NOT_PLAYED under rule CANTE-21
      And the hand is not over
      And the state field "match.points.0" is 0

  Rule: PRE-10 From the second hand on, the player who won the last trick deals

    @PRE-10 @S000 @S004
    Scenario: The opponent who took the last trick of a won point deals the next hand
      Given a hand in the arrastre, trumps in bastos, seat 3 to lead:
        | seat 0 | 2o |
        | seat 1 | 4o |
        | seat 2 | 5o |
        | seat 3 | Ao |
      And the card points so far are 20 for side 0 and 89 for side 1
      When these tricks are played:
        | Ao 2o 4o 5o |
      Then side 1 wins the point
      And the hand is over because of over_100 under rule SCORE-06
      When the next hand is dealt from the deck, top card first:
        | ... |
      Then seat 3 deals the next hand
      And the state field "mano" is 0
      And it is seat 0's turn

    @PRE-10 @VUELTAS-01 @S000 @S004
    Scenario: The player who took the last trick of a hand without a winner deals the hand de vueltas
      Given a hand in the arrastre, trumps in espadas, seat 1 to lead:
        | seat 0 | 4o |
        | seat 1 | 2o |
        | seat 2 | Ao |
        | seat 3 | 5o |
      And the card points so far are 54 for side 0 and 55 for side 1
      When these tricks are played:
        | 2o Ao 5o 4o |
      Then the hand goes de vueltas
      And the hand is over because of vueltas under rule SCORE-13
      When the next hand is dealt from the deck, top card first:
        | ... |
      Then seat 2 deals the next hand
      And the state field "mano" is 3
      And the state field "de_vueltas" is true
      And the state field "hand_in_point" is 1

    @PRE-10 @SCORE-02 @S000 @S004
    Scenario: Once a hand is over nothing is played until the next hand is dealt
      Given a hand in the arrastre, trumps in bastos, seat 3 to lead:
        | seat 0 | 2o |
        | seat 1 | 4o |
        | seat 2 | 5o |
        | seat 3 | Ao |
      And the card points so far are 54 for side 0 and 55 for side 1
      When these tricks are played:
        | Ao 2o 4o 5o |
      Then the hand goes de vueltas
      And the next hand may be dealt
      When a draw is attempted
      Then the action is refused as HAND_OVER under rule SCORE-02
      When seat 3 tries to sing oros
      Then the action is refused as HAND_OVER under rule SCORE-02
      And the phase is hand_over
      And the state field "turn" is null

    @PRE-10 @S000 @S004
    Scenario: The next hand is not dealt while a hand is being played
      Given a hand in the arrastre, trumps in bastos, seat 3 to lead:
        | seat 0 | 2o |
        | seat 1 | 4o |
        | seat 2 | 5o |
        | seat 3 | Ao |
      And the card points so far are 54 for side 0 and 55 for side 1
      Then the next hand may not be dealt
      When a deal of the next hand is attempted
      Then the action is refused as HAND_IN_PROGRESS under rule PRE-10
      And it is seat 3's turn
      And the hand is not over

  Rule: MATCH-11 After a hand that stops before its last trick, the player who won the last trick played deals

    @MATCH-11 @vueltas_end=automatic @interpretation @thirty_malas_count=cards_plus_ultimas
    Scenario: After a hand de vueltas ends automatically the player who took its only trick deals the next hand
      Given a hand in the free phase, muestra 2b, seat 1 to lead:
        | seat 0 | Ac 3c Rc Sc 6o 4e                             |
        | seat 1 | 3o Ro 5o 5c 6e 7e                             |
        | seat 2 | Ao 4o 2e Se Ce 2c                             |
        | seat 3 | Re 7o 3e 6c 7c 4c                             |
        | stock  | 2o So Co Cc Ae 5e Ab 3b 4b 5b 6b 7b Sb Cb Rb  |
      And the hand is de vueltas, with 70 carried by side 0 and 60 by side 1
      When these tricks are played:
        | 3o Ao 3e Ac |
      Then side 0 wins the point
      And the hand is over because of vueltas_reached_101 under rule VUELTAS-07
      When the next hand is dealt from the deck, top card first:
        | ... |
      Then seat 2 deals the next hand
      And it is seat 3's turn

    @MATCH-11 @vueltas_end=claim @interpretation
    Scenario: After a false claim the claimant, who took the last trick, deals the next hand for all that
      Given a hand in the free phase, muestra 2b, seat 1 to lead:
        | seat 0 | Ac 3c Rc Sc 6o 4e                             |
        | seat 1 | 3o Ro 5o 5c 6e 7e                             |
        | seat 2 | Ao 4o 2e Se Ce 2c                             |
        | seat 3 | Re 7o 3e 6c 7c 4c                             |
        | stock  | 2o So Co Cc Ae 5e Ab 3b 4b 5b 6b 7b Sb Cb Rb  |
      And the hand is de vueltas, with 70 carried by side 0 and 60 by side 1
      When these tricks are played:
        | Ro Ao Re Ac |
      And seat 2 claims 101
      Then side 1 wins the point
      And the hand is over because of claim_false under rule VUELTAS-06
      When the next hand is dealt from the deck, top card first:
        | ... |
      Then seat 2 deals the next hand

    @MATCH-11 @tute=wins_point @interpretation
    Scenario: After a tute the player who took the trick before it deals the next hand, not the singer
      Given a hand in the free phase, muestra 2b, seat 1 to lead:
        | seat 0 | Ro Rc Re Rb 4o 5c                             |
        | seat 1 | 3o 2c 6o 7o 6e 7e                             |
        | seat 2 | Ao Ac So Sc Se Ce                             |
        | seat 3 | 3c 4c Co Cc 4e 5e                             |
        | stock  | 2o 5o 6c 7c Ae 2e 3e Ab 3b 4b 5b 6b 7b Sb Cb  |
      When these tricks are played:
        | 2c Ac 4c 5c |
      And seat 0 sings tute of reyes
      Then side 0 wins the point
      And the hand is over because of tute under rule CANTE-22
      When the next hand is dealt from the deck, top card first:
        | ... |
      Then seat 2 deals the next hand
      And it is seat 3's turn
