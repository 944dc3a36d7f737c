Feature: Counting a hand
  How a hand is scored and who takes the point: card points, cantes and the diez de últimas
  make a side's score; more than 100 wins; when both sides pass 100 the diez de últimas decide;
  and the thirty malas, on which the sources disagree in four ways (what happens to a side
  without them, what counts toward them, when they are checked, and in which hands).
  Most positions below are the last trick of a first hand: the card points so far plus the
  cards still in hand always add up to 120, and earlier cantes are given as already sung.
  With one card each, every card is legal under every reading of the arrastre.

  Rule: SCORE-01 The side that wins the final trick of the hand scores the diez de últimas

    @SCORE-01 @SCORE-15 @S000 @S002 @S003 @S004
    Scenario: The partner who takes the final trick scores the diez de últimas for his side
      Given a hand in the arrastre, trumps in espadas, seat 1 to lead:
        | seat 0 | 4o |
        | seat 1 | 2o |
        | seat 2 | Ao |
        | seat 3 | 5o |
      And the card points so far are 54 for side 0 and 55 for side 1
      When these tricks are played:
        | 2o Ao 5o 4o |
      Then seat 2 wins the trick
      And side 0 wins the diez de últimas
      And side 0 has 65 card points
      And side 0 has 75 points in the hand
      And side 1 has 55 points in the hand
      And the hand is over because of vueltas under rule SCORE-13

    @SCORE-01 @S000 @S002 @S003 @S004
    Scenario: An opponent who trumps the final trick takes the diez de últimas from the side that led
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | Ac |
        | seat 1 | 2o |
        | seat 2 | 3c |
        | seat 3 | 4c |
      And the card points so far are 60 for side 0 and 39 for side 1
      When these tricks are played:
        | Ac 2o 3c 4c |
      Then seat 1 wins the trick
      And side 1 wins the diez de últimas
      And side 1 has 70 points in the hand
      And side 0 has 60 points in the hand
      And the hand is over because of vueltas under rule SCORE-13

  Rule: SCORE-17 The last trick before the arrastre earns no diez de últimas

    @SCORE-17 @S000 @S002 @S003
    Scenario: Winning the trick that empties the stock scores only its card points
      Given a hand in the free phase, muestra 2b, seat 0 to lead:
        | seat 0 | Ao 3o Ro So Co 7o |
        | seat 1 | 2o 4o 5o 6o Ac 3c |
        | seat 2 | Rc Sc Cc 7c 6c 5c |
        | seat 3 | 4c 2c Ae 3e Re Se |
        | stock  | 4e 5e 6e          |
      And the card points so far are 20 for side 0 and 12 for side 1
      When these tricks are played:
        | Ao 2o 5c 4c |
      And the cards are drawn
      Then the phase is arrastre
      And the state field "ultimas" is null
      And side 0 has 31 card points
      And side 0 has 31 points in the hand

  Rule: SCORE-02 A side's score for the hand is its card points, its cantes and the diez de últimas

    @SCORE-02 @SCORE-13 @S000 @S002 @S003 @S004
    Scenario: Card points, a twenty and the diez de últimas add up to the side's score
      Given a hand in the arrastre, trumps in oros, seat 2 to lead:
        | seat 0 | 3c |
        | seat 1 | 4c |
        | seat 2 | Ac |
        | seat 3 | 5c |
      And the card points so far are 44 for side 0 and 55 for side 1
      And seat 2 has already sung espadas
      When these tricks are played:
        | Ac 5c 3c 4c |
      Then side 0 has 65 card points
      And side 0 has 20 cante points
      And side 0 has 95 points in the hand
      And side 1 has 55 points in the hand
      And the hand goes de vueltas
      And the hand is over because of vueltas under rule SCORE-13

  Rule: SCORE-03 Cards and últimas put 130 points in play in every hand, cantes aside

    # The stock below is the rest of the deck in deck order. Played out by the closed rule
    # (each seat its first legal card in deck order), side 0 takes tricks 2, 3, 5, 8 and 10
    # (2 + 14 + 9 + 25 + 2 = 52) and side 1 tricks 1, 4, 6, 7 and 9 (25 + 10 + 24 + 2 + 7 = 68).
    @SCORE-03 @SCORE-01 @SCORE-13 @S000 @S002 @S003
    Scenario: A whole hand played out from the deal shares 120 card points and the ten of the last trick
      Given a deal by seat 3:
        | seat 0  | 3o Rc 5e Ab 2c Sb                            |
        | seat 1  | Ao 4c Ce 7b Se 6o                            |
        | seat 2  | Ac Ro 2e 3b Cc 5b                            |
        | seat 3  | 3c So Ae 6b 7o 4e                            |
        | muestra | 4b                                           |
        | stock   | 2o 4o 5o Co 5c 6c 7c Sc 3e 6e 7e Re 2b Cb Rb |
      When the rest of the hand is played, each seat playing its first legal card in deck order
      Then the state field "tricks_played" is 10
      And side 0 has 52 card points
      And side 1 has 68 card points
      And side 0 wins the diez de últimas
      And side 0 has 62 points in the hand
      And side 1 has 68 points in the hand
      And the hand goes de vueltas
      And the hand is over because of vueltas under rule SCORE-13

  Rule: SCORE-04 A side needs more than 100 points, at least 101, to win

    @SCORE-04 @SCORE-06 @S000 @S002 @S003 @S004
    Scenario: A side that ends the first hand with exactly 101 wins the point
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | Ab |
        | seat 1 | 2b |
        | seat 2 | 4b |
        | seat 3 | 5b |
      And the tricks won so far are 4 for side 0 and 5 for side 1
      And the card points so far are 40 for side 0 and 69 for side 1
      And seat 0 has already sung oros
      When these tricks are played:
        | Ab 2b 4b 5b |
      Then side 0 has 101 points in the hand
      And side 1 has 69 points in the hand
      And side 0 wins the point
      And the hand is over because of over_100 under rule SCORE-06

    @SCORE-04 @SCORE-13 @S000 @S002 @S003 @S004
    Scenario: A side that ends the first hand with exactly 100 does not win and the hand goes de vueltas
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | Ab |
        | seat 1 | 2b |
        | seat 2 | 4b |
        | seat 3 | 5b |
      And the tricks won so far are 4 for side 0 and 5 for side 1
      And the card points so far are 39 for side 0 and 70 for side 1
      And seat 0 has already sung oros
      When these tricks are played:
        | Ab 2b 4b 5b |
      Then side 0 has 100 points in the hand
      And side 1 has 70 points in the hand
      And the hand goes de vueltas
      And the hand is over because of vueltas under rule SCORE-13

  Rule: SCORE-06 In the first hand, the only side past 100 wins the point

    @SCORE-06 @SCORE-02 @S000 @S002 @S003 @S004 @thirty_malas_count=cards_plus_ultimas
    Scenario: The only side past 100 wins the point although the other side takes the diez de últimas
      Given a hand in the arrastre, trumps in copas, seat 3 to lead:
        | seat 0 | 5e |
        | seat 1 | 6e |
        | seat 2 | 7e |
        | seat 3 | 3e |
      And the tricks won so far are 2 for side 0 and 7 for side 1
      And the card points so far are 46 for side 0 and 64 for side 1
      And seat 0 has already sung copas
      And seat 2 has already sung bastos
      When these tricks are played:
        | 3e 5e 6e 7e |
      Then seat 3 wins the trick
      And side 1 wins the diez de últimas
      And side 0 has 106 points in the hand
      And side 1 has 84 points in the hand
      And side 0 wins the point
      And the hand is over because of over_100 under rule SCORE-06

  Rule: SCORE-07 When both sides pass 100, the side with the diez de últimas wins the point

    @SCORE-07 @S000 @S002 @S003 @S004
    Scenario: With both sides past 100 the diez de últimas win the point for the side with fewer points
      Given a hand in the arrastre, trumps in oros, seat 1 to lead:
        | seat 0 | 5e |
        | seat 1 | Ae |
        | seat 2 | 2e |
        | seat 3 | 4e |
      And the tricks won so far are 4 for side 0 and 5 for side 1
      And the card points so far are 56 for side 0 and 53 for side 1
      And seat 0 has already sung oros
      And seat 2 has already sung copas
      And seat 1 has already sung espadas
      And seat 3 has already sung bastos
      When these tricks are played:
        | Ae 2e 4e 5e |
      Then side 1 wins the diez de últimas
      And side 0 has 116 points in the hand
      And side 1 has 114 points in the hand
      And side 1 wins the point
      And the hand is over because of over_100 under rule SCORE-07

  Rule: SCORE-09 The thirty malas: a side needs at least 30 points without its cantes to win

    @SCORE-09 @thirty_malas_count=cards_plus_ultimas @S002 @S004
    Scenario: Exactly thirty malas are enough for the side with the diez de últimas when both pass 100
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | 7c |
        | seat 1 | 2c |
        | seat 2 | 4c |
        | seat 3 | 5c |
      And the tricks won so far are 4 for side 0 and 5 for side 1
      And the card points so far are 20 for side 0 and 100 for side 1
      And seat 0 has already sung oros
      And seat 2 has already sung espadas
      And seat 0 has already sung bastos
      And seat 1 has already sung copas
      When these tricks are played:
        | 7c 2c 4c 5c |
      Then seat 0 wins the trick
      And side 0 has 110 points in the hand
      And side 1 has 120 points in the hand
      And side 0 wins the point
      And the hand is over because of over_100 under rule SCORE-07

  Rule: SCORE-12 What happens to a side past 100 without thirty malas

    @SCORE-12 @SCORE-09 @thirty_malas=lose @S000
    Scenario: With both sides past 100, the side with the últimas but only 25 malas loses the point
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | 7c |
        | seat 1 | 2c |
        | seat 2 | 4c |
        | seat 3 | 5c |
      And the tricks won so far are 4 for side 0 and 5 for side 1
      And the card points so far are 15 for side 0 and 105 for side 1
      And seat 0 has already sung oros
      And seat 2 has already sung espadas
      And seat 0 has already sung bastos
      When these tricks are played:
        | 7c 2c 4c 5c |
      Then side 0 wins the diez de últimas
      And side 0 has 105 points in the hand
      And side 1 has 105 points in the hand
      And side 1 wins the point
      And the hand is over because of thirty_malas_lose under rule SCORE-12

    @SCORE-12 @SCORE-09 @thirty_malas=cannot_win @S004
    Scenario: With both sides past 100, the side with the últimas but only 25 malas cannot win and the opponents take the point
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | 7c |
        | seat 1 | 2c |
        | seat 2 | 4c |
        | seat 3 | 5c |
      And the tricks won so far are 4 for side 0 and 5 for side 1
      And the card points so far are 15 for side 0 and 105 for side 1
      And seat 0 has already sung oros
      And seat 2 has already sung espadas
      And seat 0 has already sung bastos
      When these tricks are played:
        | 7c 2c 4c 5c |
      Then side 0 wins the diez de últimas
      And side 1 has 105 points in the hand
      And side 1 wins the point
      And the hand is over because of thirty_malas_cannot_win under rule SCORE-12

    # The mirror image, with the opponents on exactly 101: side 1 takes the últimas with 19
    # card points (29 malas) and 80 in cantes; side 0 has 101 in cards, enough to take the point.
    @SCORE-12 @SCORE-09 @thirty_malas=cannot_win @S004
    Scenario: When seat 1's side takes the últimas with only 29 malas, opponents on exactly 101 take the point
      Given a hand in the arrastre, trumps in oros, seat 1 to lead:
        | seat 0 | 5c |
        | seat 1 | 7c |
        | seat 2 | 2c |
        | seat 3 | 4c |
      And the tricks won so far are 5 for side 0 and 4 for side 1
      And the card points so far are 101 for side 0 and 19 for side 1
      And seat 1 has already sung oros
      And seat 3 has already sung espadas
      And seat 1 has already sung bastos
      When these tricks are played:
        | 7c 2c 4c 5c |
      Then side 1 wins the diez de últimas
      And side 1 has 109 points in the hand
      And side 0 has 101 points in the hand
      And side 0 wins the point
      And the hand is over because of thirty_malas_cannot_win under rule SCORE-12

    @SCORE-12 @SCORE-09 @thirty_malas=vueltas @S002 @S003
    Scenario: With both sides past 100, the side with the últimas but only 25 malas sends the hand de vueltas
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | 7c |
        | seat 1 | 2c |
        | seat 2 | 4c |
        | seat 3 | 5c |
      And the tricks won so far are 4 for side 0 and 5 for side 1
      And the card points so far are 15 for side 0 and 105 for side 1
      And seat 0 has already sung oros
      And seat 2 has already sung espadas
      And seat 0 has already sung bastos
      When these tricks are played:
        | 7c 2c 4c 5c |
      Then side 0 wins the diez de últimas
      And the hand goes de vueltas
      And side 0 has 105 points in total
      And side 1 has 105 points in total
      And the hand is over because of thirty_malas_vueltas under rule SCORE-12

    @SCORE-12 @thirty_malas=cannot_win @thirty_malas_count=cards_only @thirty_malas_trigger=any_winner @interpretation
    Scenario: A side without thirty malas in cards cannot win, and opponents with only 95 do not take the point either
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | 7c |
        | seat 1 | 2c |
        | seat 2 | 4c |
        | seat 3 | 5c |
      And the tricks won so far are 4 for side 0 and 5 for side 1
      And the card points so far are 25 for side 0 and 95 for side 1
      And seat 0 has already sung oros
      And seat 2 has already sung espadas
      And seat 0 has already sung bastos
      When these tricks are played:
        | 7c 2c 4c 5c |
      Then side 0 has 115 points in the hand
      And side 1 has 95 points in the hand
      And the hand goes de vueltas
      And the hand is over because of thirty_malas_vueltas under rule SCORE-12

  Rule: SCORE-10 What counts toward the thirty malas: card points and the diez de últimas, thirty card points and the últimas, or card points alone

    @SCORE-10 @thirty_malas_count=cards_plus_ultimas @S000 @S002 @S003 @S004
    Scenario: Twenty-five card points and the diez de últimas make thirty-five malas and the point
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | 7c |
        | seat 1 | 2c |
        | seat 2 | 4c |
        | seat 3 | 5c |
      And the tricks won so far are 4 for side 0 and 5 for side 1
      And the card points so far are 25 for side 0 and 95 for side 1
      And seat 0 has already sung oros
      And seat 2 has already sung espadas
      And seat 0 has already sung bastos
      When these tricks are played:
        | 7c 2c 4c 5c |
      Then side 0 has 115 points in the hand
      And side 1 has 95 points in the hand
      And side 0 wins the point
      And the hand is over because of over_100 under rule SCORE-06

    @SCORE-10 @SCORE-12 @thirty_malas_count=cards_only @thirty_malas_trigger=any_winner @thirty_malas=lose @interpretation
    Scenario: Counting card points alone, 25 card points fall short and the point goes to opponents with only 95
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | 7c |
        | seat 1 | 2c |
        | seat 2 | 4c |
        | seat 3 | 5c |
      And the tricks won so far are 4 for side 0 and 5 for side 1
      And the card points so far are 25 for side 0 and 95 for side 1
      And seat 0 has already sung oros
      And seat 2 has already sung espadas
      And seat 0 has already sung bastos
      When these tricks are played:
        | 7c 2c 4c 5c |
      Then side 0 has 115 points in the hand
      And side 1 has 95 points in the hand
      And side 1 wins the point
      And the hand is over because of thirty_malas_lose under rule SCORE-12

    # B-24: S003 read literally asks for thirty card points and the diez de últimas as well.
    @SCORE-10 @SCORE-12 @thirty_malas_count=cards_and_ultimas @thirty_malas=vueltas @thirty_malas_trigger=any_winner @S003
    Scenario: Counting as S003 words it, forty card points without the diez de últimas fall short and the hand goes de vueltas
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | 4c |
        | seat 1 | Ac |
        | seat 2 | 5c |
        | seat 3 | 6c |
      And the tricks won so far are 4 for side 0 and 5 for side 1
      And the card points so far are 40 for side 0 and 69 for side 1
      And seat 0 has already sung oros
      And seat 2 has already sung espadas
      And seat 0 has already sung bastos
      When these tricks are played:
        | 4c Ac 5c 6c |
      Then side 0 has 120 points in the hand
      And side 1 has 90 points in the hand
      And the hand goes de vueltas
      And the hand is over because of thirty_malas_vueltas under rule SCORE-12

  Rule: SCORE-18 When the thirty malas are checked: whenever a side would win, or only when both pass 100

    # S000's trigger makes a difference only with a count S000 does not use (cards_only).
    @SCORE-18 @thirty_malas_trigger=both_over_only @thirty_malas_count=cards_only @interpretation
    Scenario: Checked only when both sides pass 100, the thirty malas do not stop the only side past 100
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | 7c |
        | seat 1 | 2c |
        | seat 2 | 4c |
        | seat 3 | 5c |
      And the tricks won so far are 4 for side 0 and 5 for side 1
      And the card points so far are 25 for side 0 and 95 for side 1
      And seat 0 has already sung oros
      And seat 2 has already sung espadas
      And seat 0 has already sung bastos
      When these tricks are played:
        | 7c 2c 4c 5c |
      Then side 0 has 115 points in the hand
      And side 0 wins the point
      And the hand is over because of over_100 under rule SCORE-06

    @SCORE-18 @thirty_malas_trigger=any_winner @thirty_malas_count=cards_only @thirty_malas=vueltas @interpretation
    Scenario: Checked for any would-be winner, the thirty malas stop even the only side past 100
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | 7c |
        | seat 1 | 2c |
        | seat 2 | 4c |
        | seat 3 | 5c |
      And the tricks won so far are 4 for side 0 and 5 for side 1
      And the card points so far are 25 for side 0 and 95 for side 1
      And seat 0 has already sung oros
      And seat 2 has already sung espadas
      And seat 0 has already sung bastos
      When these tricks are played:
        | 7c 2c 4c 5c |
      Then side 0 has 115 points in the hand
      And the hand goes de vueltas
      And the hand is over because of thirty_malas_vueltas under rule SCORE-12

  Rule: SCORE-11 In which hands of a point the thirty malas apply: the first only, or every hand

    # Both scenarios start from the same last trick of a first hand: side 0 takes it and the
    # diez de últimas, reaching 105 with 80 in cantes but only 25 malas; side 1 has 105 in cards.
    # Under thirty_malas=vueltas the hand goes de vueltas with both sides carried at 105.
    # The next deck puts 4c, 6c, 2c, 7c (the first trick) and 3e, 5e, 6e, 2e (the second) in
    # the places that reach seats 1, 2, 3 and 0 under both ways of dealing; the muestra is 2b.
    # S002/S003 limit the thirty malas to the first hand; who wins when both sides enter the hand
    # de vueltas past 101 no source says (C-29): the project gives it to the first side to score.
    @SCORE-11 @thirty_malas_scope=first_hand_only @thirty_malas=vueltas @thirty_malas_trigger=any_winner @vueltas_end=automatic @interpretation
    Scenario: Outside the first hand of a point the thirty malas no longer count and 25 malas are enough
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | 7c |
        | seat 1 | 2c |
        | seat 2 | 4c |
        | seat 3 | 5c |
      And the tricks won so far are 4 for side 0 and 5 for side 1
      And the card points so far are 15 for side 0 and 105 for side 1
      And seat 0 has already sung oros
      And seat 2 has already sung espadas
      And seat 0 has already sung bastos
      When these tricks are played:
        | 7c 2c 4c 5c |
      Then the hand goes de vueltas
      When the next hand is dealt from the deck, top card first:
        | 4c Ae Ao 3o Ro |
        | 6c 2c So Co 4o |
        | 5o 7c 3e 6o 7o |
        | Ac 3c 5e 6e Rc |
        | Sc Cc 5c 2e 2b |
        | ...            |
      And these tricks are played:
        | 4c 6c 2c 7c |
      Then seat 0 wins the trick
      And side 0 wins the point
      And side 0 has 105 points in total
      And the hand is over because of vueltas_reached_101 under rule VUELTAS-07

    @SCORE-11 @thirty_malas_scope=all_hands @thirty_malas=vueltas @thirty_malas_trigger=any_winner @vueltas_end=automatic @interpretation @thirty_malas_count=cards_plus_ultimas
    Scenario: When the thirty malas always apply, a side still short of them in the point cannot take it de vueltas
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | 7c |
        | seat 1 | 2c |
        | seat 2 | 4c |
        | seat 3 | 5c |
      And the tricks won so far are 4 for side 0 and 5 for side 1
      And the card points so far are 15 for side 0 and 105 for side 1
      And seat 0 has already sung oros
      And seat 2 has already sung espadas
      And seat 0 has already sung bastos
      When these tricks are played:
        | 7c 2c 4c 5c |
      Then the hand goes de vueltas
      When the next hand is dealt from the deck, top card first:
        | 4c Ae Ao 3o Ro |
        | 6c 2c So Co 4o |
        | 5o 7c 3e 6o 7o |
        | Ac 3c 5e 6e Rc |
        | Sc Cc 5c 2e 2b |
        | ...            |
      And these tricks are played:
        | 4c 6c 2c 7c |
      Then seat 0 wins the trick
      And the hand is not over
      When these tricks are played:
        | 2e 3e 5e 6e |
      Then seat 1 wins the trick
      And side 1 wins the point
      And side 1 has 115 points in total
      And the hand is over because of vueltas_reached_101 under rule VUELTAS-07

    # Under thirty_malas_trigger=both_over_only the check made as a side reaches 101 in a hand
    # de vueltas judges that side alone (an interpretation, B-26): the thirty malas are not
    # checked, and 25 malas are enough, as outside the first hand.
    @SCORE-11 @SCORE-09 @thirty_malas_scope=all_hands @thirty_malas=vueltas @thirty_malas_trigger=both_over_only @vueltas_end=automatic @interpretation @thirty_malas_count=cards_plus_ultimas
    Scenario: When the thirty malas are checked only with both sides past 100, a side reaching 101 de vueltas takes the point without them
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | 7c |
        | seat 1 | 2c |
        | seat 2 | 4c |
        | seat 3 | 5c |
      And the tricks won so far are 4 for side 0 and 5 for side 1
      And the card points so far are 15 for side 0 and 105 for side 1
      And seat 0 has already sung oros
      And seat 2 has already sung espadas
      And seat 0 has already sung bastos
      When these tricks are played:
        | 7c 2c 4c 5c |
      Then the hand goes de vueltas
      When the next hand is dealt from the deck, top card first:
        | 4c Ae Ao 3o Ro |
        | 6c 2c So Co 4o |
        | 5o 7c 3e 6o 7o |
        | Ac 3c 5e 6e Rc |
        | Sc Cc 5c 2e 2b |
        | ...            |
      And these tricks are played:
        | 4c 6c 2c 7c |
      Then seat 0 wins the trick
      And side 0 wins the point
      And side 0 has 105 points in total
      And the hand is over because of vueltas_reached_101 under rule VUELTAS-07

    # The same two hands with claims (vueltas_end=claim): side 0 enters the hand de vueltas with
    # 105 but only 25 malas and claims after its first trick. Whether the thirty malas are
    # checked at a claim follows thirty_malas_trigger (B-26): under any_winner they are, and
    # the claim is false; under both_over_only a claim is judged on the claimant's total alone
    # (an interpretation: no source speaks of the thirty malas at a claim), and it is true.
    @SCORE-11 @SCORE-09 @VUELTAS-06 @thirty_malas_scope=all_hands @thirty_malas=vueltas @thirty_malas_trigger=any_winner @vueltas_end=claim @interpretation @thirty_malas_count=cards_plus_ultimas
    Scenario: When the thirty malas always apply, a claim by a side still short of them is false
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | 7c |
        | seat 1 | 2c |
        | seat 2 | 4c |
        | seat 3 | 5c |
      And the tricks won so far are 4 for side 0 and 5 for side 1
      And the card points so far are 15 for side 0 and 105 for side 1
      And seat 0 has already sung oros
      And seat 2 has already sung espadas
      And seat 0 has already sung bastos
      When these tricks are played:
        | 7c 2c 4c 5c |
      Then the hand goes de vueltas
      When the next hand is dealt from the deck, top card first:
        | 4c Ae Ao 3o Ro |
        | 6c 2c So Co 4o |
        | 5o 7c 3e 6o 7o |
        | Ac 3c 5e 6e Rc |
        | Sc Cc 5c 2e 2b |
        | ...            |
      And these tricks are played:
        | 4c 6c 2c 7c |
      Then seat 0 wins the trick
      And side 0 has 105 points in total
      When seat 0 claims 101
      Then side 1 wins the point
      And the hand is over because of claim_false under rule VUELTAS-06

    @SCORE-11 @SCORE-09 @VUELTAS-06 @thirty_malas_scope=all_hands @thirty_malas=vueltas @thirty_malas_trigger=both_over_only @vueltas_end=claim @interpretation @thirty_malas_count=cards_plus_ultimas
    Scenario: When the thirty malas are checked only with both sides past 100, a claim is judged on the total alone
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | 7c |
        | seat 1 | 2c |
        | seat 2 | 4c |
        | seat 3 | 5c |
      And the tricks won so far are 4 for side 0 and 5 for side 1
      And the card points so far are 15 for side 0 and 105 for side 1
      And seat 0 has already sung oros
      And seat 2 has already sung espadas
      And seat 0 has already sung bastos
      When these tricks are played:
        | 7c 2c 4c 5c |
      Then the hand goes de vueltas
      When the next hand is dealt from the deck, top card first:
        | 4c Ae Ao 3o Ro |
        | 6c 2c So Co 4o |
        | 5o 7c 3e 6o 7o |
        | Ac 3c 5e 6e Rc |
        | Sc Cc 5c 2e 2b |
        | ...            |
      And these tricks are played:
        | 4c 6c 2c 7c |
      Then seat 0 wins the trick
      And side 0 has 105 points in total
      When seat 0 claims 101
      Then side 0 wins the point
      And the hand is over because of claim_correct under rule VUELTAS-06

  Rule: SCORE-13 When neither side passes 100 the point is not decided and the hand goes de vueltas

    @SCORE-13 @S000 @S002 @S003 @S004
    Scenario: Two sides at 75 and 55 leave the point undecided and the hand goes de vueltas
      Given a hand in the arrastre, trumps in espadas, seat 1 to lead:
        | seat 0 | 4o |
        | seat 1 | 2o |
        | seat 2 | Ao |
        | seat 3 | 5o |
      And the card points so far are 54 for side 0 and 55 for side 1
      When these tricks are played:
        | 2o Ao 5o 4o |
      Then the hand goes de vueltas
      And a point_won event does not happen
      And the state field "match.points.0" is 0
      And the state field "match.points.1" is 0
      And the hand is over because of vueltas under rule SCORE-13

  Rule: SCORE-15 Points are counted per side: partners add up, and mano a mano each player counts alone

    @SCORE-15 @S000 @S004
    Scenario: Tricks won by both partners add up to one count for their side
      Given a hand in the arrastre, trumps in espadas, seat 0 to lead:
        | seat 0 | Ao 4c |
        | seat 1 | 2o 5c |
        | seat 2 | 4o Ac |
        | seat 3 | 5o 6c |
      And the card points so far are 40 for side 0 and 58 for side 1
      When these tricks are played:
        | Ao 2o 4o 5o |
        | 4c 5c Ac 6c |
      Then seat 2 wins the trick
      And side 0 has 62 card points
      And side 0 has 72 points in the hand
      And side 1 has 58 points in the hand
      And the hand is over because of vueltas under rule SCORE-13

    @SCORE-15 @players=2 @S002 @S003 @S004
    Scenario: Mano a mano the player who takes the last trick counts his cards and the diez de últimas alone
      Given a hand in the arrastre, trumps in bastos, seat 1 to lead:
        | seat 0 | Ao |
        | seat 1 | 2o |
      And the card points so far are 90 for side 0 and 19 for side 1
      When these tricks are played:
        | 2o Ao |
      Then seat 0 wins the trick
      And side 0 has 111 points in the hand
      And side 1 has 19 points in the hand
      And side 0 wins the point
      And the hand is over because of over_100 under rule SCORE-06
