Feature: Hands de vueltas
  When no side passes 100 in the first hand of a point, another hand is dealt and each side's
  points carry over until one side reaches 101. Such a hand need not be played to the end.
  The sources disagree on how it stops: the point goes to the first side to reach 101
  (S002, S003, and S004's secret count: vueltas_end=automatic) or the winner of a trick claims
  to have passed 100 and is checked (S000: vueltas_end=claim), a false claim handing the point
  to the opponents; whether his partner may claim too is an interpretation (vueltas_claim_by).
  Most scenarios start at the first trick of a hand de vueltas in which the sides carry 70 and
  60 points from the first hand (130 between them: no cantes were sung). In these positions a
  side that passes 100 has at least thirty card points of its own in the hand de vueltas, so
  every reading of the thirty malas agrees on them (the readings that differ de vueltas are
  pinned down under SCORE-11 in scoring.feature).

  Rule: VUELTAS-01 A hand de vueltas is dealt and played like any other hand

    @VUELTAS-01 @S000 @S002 @S003 @S004 @deck=40
    Scenario: After a first hand with no winner a new hand is dealt with a fresh stock and muestra
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
      And the next hand may be dealt
      When the next hand is dealt from the deck, top card first:
        | ... |
      Then the phase is free
      And the state field "de_vueltas" is true
      And the state field "hand_size.0" is 6
      And the state field "hand_size.3" is 6
      And the muestra is 5e
      And 16 cards are left to draw
      And it is seat 3's turn

  Rule: VUELTAS-02 In a hand de vueltas each side's points add to its total from the earlier hand

    @VUELTAS-02 @S000 @S002 @S003 @S004
    Scenario: The totals of the first hand are carried into the hand de vueltas
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
      Then side 0 has 0 points in the hand
      And side 0 has 75 points in total
      And side 1 has 55 points in total

    @VUELTAS-02 @S000 @S002 @S003 @S004
    Scenario: A trick won de vueltas adds its points to the side's carried total
      Given a hand in the free phase, muestra 2b, seat 1 to lead:
        | seat 0 | Ac 3c Rc Sc 6o 4e                             |
        | seat 1 | 3o Ro 5o 5c 6e 7e                             |
        | seat 2 | Ao 4o 2e Se Ce 2c                             |
        | seat 3 | Re 7o 3e 6c 7c 4c                             |
        | stock  | 2o So Co Cc Ae 5e Ab 3b 4b 5b 6b 7b Sb Cb Rb  |
      And the hand is de vueltas, with 70 carried by side 0 and 60 by side 1
      When these tricks are played:
        | 3o 4o 7o 6o |
      Then seat 1 wins the trick
      And side 1 has 10 points in the hand
      And side 1 has 70 points in total
      And side 0 has 70 points in total
      And the hand is not over

  Rule: VUELTAS-03 Hands de vueltas go on until a side reaches 101

    @VUELTAS-03 @S000 @S002 @S003 @S004
    Scenario: A side that reaches exactly 100 de vueltas has not won and the hand goes on
      Given a hand in the free phase, muestra 2b, seat 1 to lead:
        | seat 0 | Ac 3c Rc Sc 6o 4e                             |
        | seat 1 | 3o Ro 5o 5c 6e 7e                             |
        | seat 2 | Ao 4o 2e Se Ce 2c                             |
        | seat 3 | Re 7o 3e 6c 7c 4c                             |
        | stock  | 2o So Co Cc Ae 5e Ab 3b 4b 5b 6b 7b Sb Cb Rb  |
      And the hand is de vueltas, with 70 carried by side 0 and 60 by side 1
      When these tricks are played:
        | Ro Ao Re Ac |
      Then seat 2 wins the trick
      And the trick carries 30 points
      And side 0 has 100 points in total
      And the hand is not over
      And a point_won event does not happen

    @VUELTAS-03 @VUELTAS-07 @vueltas_end=automatic @S002 @S003 @thirty_malas_count=cards_plus_ultimas
    Scenario: A side that reaches exactly 101 de vueltas has won, and the hand stops there
      Given a hand in the free phase, muestra 2b, seat 1 to lead:
        | seat 0 | Ac 3c Rc Sc 6o 4e                             |
        | seat 1 | 3o Ro 5o 5c 6e 7e                             |
        | seat 2 | Ao 4o 2e Se Ce 2c                             |
        | seat 3 | Re 7o 3e 6c 7c 4c                             |
        | stock  | 2o So Co Cc Ae 5e Ab 3b 4b 5b 6b 7b Sb Cb Rb  |
      And the hand is de vueltas, with 70 carried by side 0 and 60 by side 1
      When these tricks are played:
        | 3o Ao 7o 3c |
      Then seat 2 wins the trick
      And the trick carries 31 points
      And side 0 has 101 points in total
      And side 0 wins the point
      And the hand is over because of vueltas_reached_101 under rule VUELTAS-07

    # Side 0 passed 100 earlier in this hand and never claimed; side 1 stays at 100.
    @VUELTAS-03 @vueltas_end=claim @S000 @interpretation @thirty_malas_count=cards_plus_ultimas
    Scenario: Played to the end without a claim, a hand de vueltas goes to the only side past 100
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | Ao Ac |
        | seat 1 | 2o 2c |
        | seat 2 | 4o 4c |
        | seat 3 | 5o 5c |
      And the tricks won so far are 5 for side 0 and 3 for side 1
      And the card points so far are 58 for side 0 and 40 for side 1
      And the hand is de vueltas, with 70 carried by side 0 and 60 by side 1
      When these tricks are played:
        | Ao 2o 4o 5o |
        | Ac 2c 4c 5c |
      Then side 0 wins the diez de últimas
      And side 0 has 160 points in total
      And side 1 has 100 points in total
      And side 0 wins the point
      And the hand is over because of over_100 under rule VUELTAS-03

  Rule: VUELTAS-04 A hand de vueltas need not be played to the end

    @VUELTAS-04 @VUELTAS-07 @VUELTAS-03 @vueltas_end=automatic @S002 @S003 @thirty_malas_count=cards_plus_ultimas
    Scenario: A hand de vueltas ends at its first trick, with cards still in hand, when the trick takes a side past 100
      Given a hand in the free phase, muestra 2b, seat 1 to lead:
        | seat 0 | Ac 3c Rc Sc 6o 4e                             |
        | seat 1 | 3o Ro 5o 5c 6e 7e                             |
        | seat 2 | Ao 4o 2e Se Ce 2c                             |
        | seat 3 | Re 7o 3e 6c 7c 4c                             |
        | stock  | 2o So Co Cc Ae 5e Ab 3b 4b 5b 6b 7b Sb Cb Rb  |
      And the hand is de vueltas, with 70 carried by side 0 and 60 by side 1
      When these tricks are played:
        | 3o Ao 3e Ac |
      Then seat 2 wins the trick
      And the trick carries 42 points
      And side 0 wins the point
      And the phase is hand_over
      And the state field "tricks_played" is 1
      And side 0 has 112 points in total
      And the hand is over because of vueltas_reached_101 under rule VUELTAS-07

    @VUELTAS-04 @VUELTAS-06 @vueltas_end=claim @S000 @thirty_malas_count=cards_plus_ultimas
    Scenario: A claim ends a hand de vueltas with cards still in hand
      Given a hand in the free phase, muestra 2b, seat 1 to lead:
        | seat 0 | Ac 3c Rc Sc 6o 4e                             |
        | seat 1 | 3o Ro 5o 5c 6e 7e                             |
        | seat 2 | Ao 4o 2e Se Ce 2c                             |
        | seat 3 | Re 7o 3e 6c 7c 4c                             |
        | stock  | 2o So Co Cc Ae 5e Ab 3b 4b 5b 6b 7b Sb Cb Rb  |
      And the hand is de vueltas, with 70 carried by side 0 and 60 by side 1
      When these tricks are played:
        | 3o Ao 3e Ac |
      And seat 2 claims 101
      Then the hand is over because of claim_correct under rule VUELTAS-06
      And the state field "tricks_played" is 1

  Rule: VUELTAS-05 The claim: after a trick of a hand de vueltas, a player of the side that won it announces 101

    @VUELTAS-05 @vueltas_end=claim @vueltas_claim_by=trick_winner @S000
    Scenario: Only the player who took the trick may claim 101, not his partner
      Given a hand in the free phase, muestra 2b, seat 1 to lead:
        | seat 0 | Ac 3c Rc Sc 6o 4e                             |
        | seat 1 | 3o Ro 5o 5c 6e 7e                             |
        | seat 2 | Ao 4o 2e Se Ce 2c                             |
        | seat 3 | Re 7o 3e 6c 7c 4c                             |
        | stock  | 2o So Co Cc Ae 5e Ab 3b 4b 5b 6b 7b Sb Cb Rb  |
      And the hand is de vueltas, with 70 carried by side 0 and 60 by side 1
      When these tricks are played:
        | 3o Ao 3e Ac |
      Then seat 2 may claim 101
      And seat 0 may not claim 101
      When seat 0 tries to claim 101
      Then the action is refused as CLAIM_NOT_TRICK_WINNER under rule VUELTAS-05

    @VUELTAS-05 @VUELTAS-06 @vueltas_end=claim @vueltas_claim_by=winning_side @interpretation @thirty_malas_count=cards_plus_ultimas
    Scenario: The partner of the player who took the trick may claim 101 for their side
      Given a hand in the free phase, muestra 2b, seat 1 to lead:
        | seat 0 | Ac 3c Rc Sc 6o 4e                             |
        | seat 1 | 3o Ro 5o 5c 6e 7e                             |
        | seat 2 | Ao 4o 2e Se Ce 2c                             |
        | seat 3 | Re 7o 3e 6c 7c 4c                             |
        | stock  | 2o So Co Cc Ae 5e Ab 3b 4b 5b 6b 7b Sb Cb Rb  |
      And the hand is de vueltas, with 70 carried by side 0 and 60 by side 1
      When these tricks are played:
        | 3o Ao 3e Ac |
      Then seat 0 may claim 101
      When seat 0 claims 101
      Then side 0 wins the point
      And the hand is over because of claim_correct under rule VUELTAS-06

    @VUELTAS-05 @vueltas_end=claim @S000
    Scenario: A player may not claim 101 after a trick taken by the opponents
      Given a hand in the free phase, muestra 2b, seat 1 to lead:
        | seat 0 | Ac 3c Rc Sc 6o 4e                             |
        | seat 1 | 3o Ro 5o 5c 6e 7e                             |
        | seat 2 | Ao 4o 2e Se Ce 2c                             |
        | seat 3 | Re 7o 3e 6c 7c 4c                             |
        | stock  | 2o So Co Cc Ae 5e Ab 3b 4b 5b 6b 7b Sb Cb Rb  |
      And the hand is de vueltas, with 70 carried by side 0 and 60 by side 1
      When these tricks are played:
        | 3o 4o 7o 6o |
      Then seat 1 may claim 101
      And seat 0 may not claim 101
      When seat 0 tries to claim 101
      Then the action is refused as CLAIM_NOT_NOW under rule VUELTAS-05

    @VUELTAS-05 @vueltas_end=claim @interpretation
    Scenario: The chance to claim 101 is lost once the next trick has been led
      Given a hand in the free phase, muestra 2b, seat 1 to lead:
        | seat 0 | Ac 3c Rc Sc 6o 4e                             |
        | seat 1 | 3o Ro 5o 5c 6e 7e                             |
        | seat 2 | Ao 4o 2e Se Ce 2c                             |
        | seat 3 | Re 7o 3e 6c 7c 4c                             |
        | stock  | 2o So Co Cc Ae 5e Ab 3b 4b 5b 6b 7b Sb Cb Rb  |
      And the hand is de vueltas, with 70 carried by side 0 and 60 by side 1
      When these tricks are played:
        | 3o Ao 3e Ac |
      And the cards are drawn
      And seat 2 plays 2c
      And seat 2 tries to claim 101
      Then the action is refused as CLAIM_NOT_NOW under rule VUELTAS-05

    @VUELTAS-05 @vueltas_end=claim @S000
    Scenario: Nobody may claim 101 in the first hand of a point
      Given a hand in the free phase, muestra 2b, seat 1 to lead:
        | seat 0 | Ac 3c Rc Sc 6o 4e                             |
        | seat 1 | 3o Ro 5o 5c 6e 7e                             |
        | seat 2 | Ao 4o 2e Se Ce 2c                             |
        | seat 3 | Re 7o 3e 6c 7c 4c                             |
        | stock  | 2o So Co Cc Ae 5e Ab 3b 4b 5b 6b 7b Sb Cb Rb  |
      When these tricks are played:
        | 3o Ao 3e Ac |
      Then seat 2 may not claim 101
      When seat 2 tries to claim 101
      Then the action is refused as CLAIM_NOT_ALLOWED under rule VUELTAS-05

  Rule: VUELTAS-06 A claim is checked against the side's total: true, it wins the point; false, the opponents win it

    @VUELTAS-06 @vueltas_end=claim @S000 @thirty_malas_count=cards_plus_ultimas
    Scenario: A side that has passed 100 wins the point by claiming it
      Given a hand in the free phase, muestra 2b, seat 1 to lead:
        | seat 0 | Ac 3c Rc Sc 6o 4e                             |
        | seat 1 | 3o Ro 5o 5c 6e 7e                             |
        | seat 2 | Ao 4o 2e Se Ce 2c                             |
        | seat 3 | Re 7o 3e 6c 7c 4c                             |
        | stock  | 2o So Co Cc Ae 5e Ab 3b 4b 5b 6b 7b Sb Cb Rb  |
      And the hand is de vueltas, with 70 carried by side 0 and 60 by side 1
      When these tricks are played:
        | 3o Ao 3e Ac |
      And seat 2 claims 101
      Then a claim event happens
      And side 0 wins the point
      And the hand is over because of claim_correct under rule VUELTAS-06

    @VUELTAS-06 @vueltas_end=claim @S000
    Scenario: A claim made at exactly 100 is false and gives the point to the opponents
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
      And the state field "match.points.1" is 1
      And the state field "match.points.0" is 0
      And the hand is over because of claim_false under rule VUELTAS-06

    @VUELTAS-06 @vueltas_end=claim @S000 @thirty_malas_count=cards_plus_ultimas
    Scenario: A claim made at exactly 101 is true and wins the point
      Given a hand in the free phase, muestra 2b, seat 1 to lead:
        | seat 0 | Ac 3c Rc Sc 6o 4e                             |
        | seat 1 | 3o Ro 5o 5c 6e 7e                             |
        | seat 2 | Ao 4o 2e Se Ce 2c                             |
        | seat 3 | Re 7o 3e 6c 7c 4c                             |
        | stock  | 2o So Co Cc Ae 5e Ab 3b 4b 5b 6b 7b Sb Cb Rb  |
      And the hand is de vueltas, with 70 carried by side 0 and 60 by side 1
      When these tricks are played:
        | 3o Ao 7o 3c |
      And seat 2 claims 101
      Then the claim event has "seat" 2
      And the claim event has "side" 0
      And the claim event has "valid" true
      And side 0 wins the point
      And the hand is over because of claim_correct under rule VUELTAS-06

    @VUELTAS-06 @vueltas_end=claim @S000
    Scenario: A false claim by seat 1 gives the point to the side of seats 0 and 2
      Given a hand in the free phase, muestra 2b, seat 1 to lead:
        | seat 0 | Ac 3c Rc Sc 6o 4e                             |
        | seat 1 | 3o Ro 5o 5c 6e 7e                             |
        | seat 2 | Ao 4o 2e Se Ce 2c                             |
        | seat 3 | Re 7o 3e 6c 7c 4c                             |
        | stock  | 2o So Co Cc Ae 5e Ab 3b 4b 5b 6b 7b Sb Cb Rb  |
      And the hand is de vueltas, with 70 carried by side 0 and 60 by side 1
      When these tricks are played:
        | 3o 4o 7o 6o |
      And seat 1 claims 101
      Then the claim event has "side" 1
      And the claim event has "valid" false
      And side 0 wins the point
      And the hand is over because of claim_false under rule VUELTAS-06

  Rule: VUELTAS-07 How a hand de vueltas stops: automatically when a side reaches 101, or only on a claim

    @VUELTAS-07 @VUELTAS-10 @vueltas_end=automatic @S002 @S003 @thirty_malas_count=cards_plus_ultimas
    Scenario: A twenty that takes a side past 100 de vueltas gives it the point at once
      Given a hand in the free phase, muestra 2b, seat 1 to lead:
        | seat 0 | Ac 3c Rc Sc 6o 4e                             |
        | seat 1 | 3o Ro 5o 5c 6e 7e                             |
        | seat 2 | Ao 4o 2e Se Ce 2c                             |
        | seat 3 | Re 7o 3e 6c 7c 4c                             |
        | stock  | 2o So Co Cc Ae 5e Ab 3b 4b 5b 6b 7b Sb Cb Rb  |
      And the hand is de vueltas, with 70 carried by side 0 and 60 by side 1
      When these tricks are played:
        | Ro Ao Re Ac |
      Then the hand is not over
      When seat 0 sings copas
      Then side 0 wins the point
      And the phase is hand_over
      And the hand is over because of vueltas_reached_101 under rule VUELTAS-07

    @VUELTAS-07 @vueltas_end=claim @S000
    Scenario: Under claims a side past 100 de vueltas does not win until it claims
      Given a hand in the free phase, muestra 2b, seat 1 to lead:
        | seat 0 | Ac 3c Rc Sc 6o 4e                             |
        | seat 1 | 3o Ro 5o 5c 6e 7e                             |
        | seat 2 | Ao 4o 2e Se Ce 2c                             |
        | seat 3 | Re 7o 3e 6c 7c 4c                             |
        | stock  | 2o So Co Cc Ae 5e Ab 3b 4b 5b 6b 7b Sb Cb Rb  |
      And the hand is de vueltas, with 70 carried by side 0 and 60 by side 1
      When these tricks are played:
        | 3o Ao 3e Ac |
      Then side 0 has 112 points in total
      And the hand is not over
      And a point_won event does not happen

    @VUELTAS-07 @vueltas_end=automatic @S002 @S003
    Scenario: When the point is given automatically there is no claim to make
      Given a hand in the free phase, muestra 2b, seat 1 to lead:
        | seat 0 | Ac 3c Rc Sc 6o 4e                             |
        | seat 1 | 3o Ro 5o 5c 6e 7e                             |
        | seat 2 | Ao 4o 2e Se Ce 2c                             |
        | seat 3 | Re 7o 3e 6c 7c 4c                             |
        | stock  | 2o So Co Cc Ae 5e Ab 3b 4b 5b 6b 7b Sb Cb Rb  |
      And the hand is de vueltas, with 70 carried by side 0 and 60 by side 1
      When these tricks are played:
        | Ro Ao Re Ac |
      Then seat 2 may not claim 101
      When seat 2 tries to claim 101
      Then the action is refused as CLAIM_NOT_ALLOWED under rule VUELTAS-05

  Rule: VUELTAS-08 During a hand de vueltas each side keeps its count to itself

    @VUELTAS-08 @S004
    Scenario: The opponents cannot see a side's running total during a hand de vueltas
      Given a hand in the free phase, muestra 2b, seat 1 to lead:
        | seat 0 | Ac 3c Rc Sc 6o 4e                             |
        | seat 1 | 3o Ro 5o 5c 6e 7e                             |
        | seat 2 | Ao 4o 2e Se Ce 2c                             |
        | seat 3 | Re 7o 3e 6c 7c 4c                             |
        | stock  | 2o So Co Cc Ae 5e Ab 3b 4b 5b 6b 7b Sb Cb Rb  |
      And the hand is de vueltas, with 70 carried by side 0 and 60 by side 1
      When these tricks are played:
        | 3o 4o 7o 6o |
      Then the hand is not over
      And seat 0 sees "total.1" as null
      And seat 2 sees "total.1" as null
      And seat 1 sees "total.0" as null
      And seat 3 sees "card_points.0" as null

  Rule: VUELTAS-10 Card points, cantes and the diez de últimas of the hand de vueltas all count toward the total

    @VUELTAS-10 @S000 @S002 @S003 @S004
    Scenario: A twenty sung de vueltas adds to the side's running total
      Given a hand in the free phase, muestra 2b, seat 1 to lead:
        | seat 0 | Ac 3c Rc Sc 6o 4e                             |
        | seat 1 | 3o Ro 5o 5c 6e 7e                             |
        | seat 2 | Ao 4o 2e Se Ce 2c                             |
        | seat 3 | Re 7o 3e 6c 7c 4c                             |
        | stock  | 2o So Co Cc Ae 5e Ab 3b 4b 5b 6b 7b Sb Cb Rb  |
      And the hand is de vueltas, with 70 carried by side 0 and 60 by side 1
      When these tricks are played:
        | Ro Ao Re Ac |
      And seat 0 sings copas
      Then side 0 has 30 card points
      And side 0 has 20 cante points
      And side 0 has 50 points in the hand
      And side 0 has 120 points in total

  Rule: VUELTAS-12 Only a hand de vueltas ends early: a first hand is played to its last trick

    @VUELTAS-12 @interpretation @thirty_malas_count=cards_plus_ultimas
    Scenario: A first hand goes on to its last trick after a side has passed 100
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | Ac 4e |
        | seat 1 | 2c 5e |
        | seat 2 | 4c 6e |
        | seat 3 | 5c 7e |
      And the tricks won so far are 5 for side 0 and 3 for side 1
      And the card points so far are 70 for side 0 and 39 for side 1
      And seat 0 has already sung oros
      When these tricks are played:
        | Ac 2c 4c 5c |
      Then side 0 has 121 points in the hand
      And the hand is not over
      When these tricks are played:
        | 4e 5e 6e 7e |
      Then seat 3 wins the trick
      And side 1 wins the diez de últimas
      And side 1 has 49 points in the hand
      And side 0 wins the point
      And the hand is over because of over_100 under rule SCORE-06

  Rule: VUELTAS-13 A claim may follow a cante made after the same trick, and the cante counts

    @VUELTAS-13 @vueltas_end=claim @interpretation @thirty_malas_count=cards_plus_ultimas
    Scenario: A side at 100 that sings a twenty after its trick can claim 101 and win
      Given a hand in the free phase, muestra 2b, seat 1 to lead:
        | seat 0 | Ac 3c Rc Sc 6o 4e                             |
        | seat 1 | 3o Ro 5o 5c 6e 7e                             |
        | seat 2 | Ao 4o 2e Se Ce 2c                             |
        | seat 3 | Re 7o 3e 6c 7c 4c                             |
        | stock  | 2o So Co Cc Ae 5e Ab 3b 4b 5b 6b 7b Sb Cb Rb  |
      And the hand is de vueltas, with 70 carried by side 0 and 60 by side 1
      When these tricks are played:
        | Ro Ao Re Ac |
      And seat 0 sings copas
      Then side 0 has 120 points in total
      When seat 2 claims 101
      Then side 0 wins the point
      And the hand is over because of claim_correct under rule VUELTAS-06

  Rule: VUELTAS-14 A hand de vueltas played out without a claim goes to the side that passed 100 first

    # Both sides start this position at exactly 100. Side 0 passes 100 with the first trick
    # and does not claim; side 1 takes the last two tricks and the diez de últimas and ends higher.
    @VUELTAS-14 @VUELTAS-10 @vueltas_end=claim @interpretation @thirty_malas_count=cards_plus_ultimas
    Scenario: Played to the end without a claim, the point goes to the side first past 100, not to the one with the últimas
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | Ac 2e 6b |
        | seat 1 | 2c Ae Ab |
        | seat 2 | 4c 4e Sb |
        | seat 3 | 5c 3e Rb |
      And the tricks won so far are 3 for side 0 and 4 for side 1
      And the card points so far are 30 for side 0 and 40 for side 1
      And the hand is de vueltas, with 70 carried by side 0 and 60 by side 1
      When these tricks are played:
        | Ac 2c 4c 5c |
        | 2e Ae 4e 3e |
        | Ab Sb Rb 6b |
      Then side 1 wins the diez de últimas
      And side 0 wins the point
      And side 0 has 111 points in total
      And side 1 has 149 points in total
      And the hand is over because of over_100 under rule VUELTAS-14

    # Side 0 starts at 99 and reaches exactly 101 with a Caballo; side 1 starts at 100 and passes
    # it with the next trick. Exactly 101 is past 100 (SCORE-04), so side 0 was first.
    @VUELTAS-14 @VUELTAS-10 @SCORE-04 @vueltas_end=claim @interpretation @thirty_malas_count=cards_plus_ultimas
    Scenario: Played to the end without a claim, a side that reached exactly 101 first takes the point
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | Cc 2e Sb |
        | seat 1 | 2c Ae Ab |
        | seat 2 | 4c 4e 3b |
        | seat 3 | 5c 3e Rb |
      And the tricks won so far are 3 for side 0 and 4 for side 1
      And the card points so far are 29 for side 0 and 40 for side 1
      And the hand is de vueltas, with 70 carried by side 0 and 60 by side 1
      When these tricks are played:
        | Cc 2c 4c 5c |
      Then side 0 has 101 points in total
      And the hand is not over
      When these tricks are played:
        | 2e Ae 4e 3e |
        | Ab 3b Rb Sb |
      Then side 1 wins the diez de últimas
      And side 0 wins the point
      And side 0 has 101 points in total
      And side 1 has 159 points in total
      And the hand is over because of over_100 under rule VUELTAS-14
