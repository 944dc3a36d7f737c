@players=2
Feature: Two players, mano a mano
  Guiñote for two players, each on his own: twelve cards are dealt and the 13th is the
  muestra, so 28 cards are left to draw and a hand has twenty tricks, fourteen free and six
  in the arrastre. The loser of the last free trick draws the muestra. With no partner there
  is no exemption in the arrastre: the second player must always beat the card led if he
  can. Every rule written for a side (cantes, the diez de últimas, points, cotos) applies to
  the single player: seat 0 is side 0 and seat 1 is side 1.

  Rule: TWO-01 Mano a mano each player is dealt six cards, twelve in all, and the 13th card is the muestra

    @TWO-01 @S002 @S003 @S004 @deal=three_three
    Scenario: Dealt three and three by seat 1, seat 0 gets cards 1 to 3 and 7 to 9 and the 13th card is the muestra
      Given the deck, top card first, dealt by seat 1:
        | Cc So 4e 7c 3e 2e |
        | 7o Ac 5e 7e 4b 6c |
        | Sb ...            |
      Then seat 0 holds Cc So 4e 7o Ac 5e
      And seat 1 holds 7c 3e 2e 7e 4b 6c
      And the muestra is Sb
      And it is seat 0's turn

  Rule: TWO-02 Mano a mano a hand with 40 cards has twenty tricks

    @TWO-02 @TWO-05 @S002 @S003 @S004
    Scenario: A two-player hand played to its end has twenty tricks, and the winner of the last one deals next
      Given a deal by seat 0:
        | seat 0  | 6o 3e 5b Cc Rc 6e                                                                  |
        | seat 1  | 2e Re 7c 6b Rb 2b                                                                  |
        | muestra | 5e                                                                                 |
        | stock   | 3b 5o 6c 7e Cb Se 4e 2c 3c 7b 4o Ae 7o So 4b Ab Co 5c Sb Ac Ce Ao Sc Ro 2o 4c 3o |
      Then it is seat 1's turn
      When the rest of the hand is played, each seat playing its first legal card in deck order
      Then the state field "tricks_played" is 20
      And seat 1 wins the trick
      And side 1 wins the diez de últimas
      And side 0 has 35 card points
      And side 1 has 85 card points
      And the hand is over because of vueltas under rule SCORE-13
      When the next hand is dealt from the deck, top card first:
        | Cc So 4e 7c 3e 2e |
        | 7o Ac 5e 7e 4b 6c |
        | Sb ...            |
      Then seat 1 deals the next hand
      And it is seat 0's turn

  Rule: TWO-03 Mano a mano with 40 cards the first fourteen tricks are free and the last six are arrastre

    @TWO-03 @S002 @S003 @deck=40
    Scenario: After a two-player deal 28 cards are left to draw, fourteen draws of two
      Given the deck, top card first, dealt by seat 0:
        | Cc So 4e 7c 3e 2e |
        | 7o Ac 5e 7e 4b 6c |
        | Sb ...            |
      Then 28 cards are left to draw
      And the phase is free

    @TWO-03 @TWO-04 @S002 @S003
    Scenario: The fourteenth trick and its draw empty the stock and leave six cards each for six tricks of arrastre
      Given a hand in the free phase, muestra Sb, seat 0 to lead:
        | seat 0 | 4o 5o 6o 7o 2c 4c |
        | seat 1 | Ao 3c 5c 6c 7c Cc |
        | stock  | Rc                |
      And seat 0 won the last trick
      And the tricks won so far are 7 for side 0 and 6 for side 1
      And the card points so far are 50 for side 0 and 40 for side 1
      When these tricks are played:
        | 4o Ao |
      And the cards are drawn
      Then the state field "tricks_played" is 14
      And the phase is arrastre
      And the state field "hand_size.0" is 6
      And the state field "hand_size.1" is 6
      When the rest of the hand is played, each seat playing its first legal card in deck order
      Then the state field "tricks_played" is 20
      And the hand is over because of vueltas under rule SCORE-13

  Rule: TWO-04 Mano a mano the winner of a free trick draws first and the loser second, so the loser of the last free trick gets the muestra

    @TWO-04 @PLAY-11 @S002 @S003
    Scenario: Seat 1 wins the last free trick, draws the last face-down card and leaves the muestra to seat 0
      Given a hand in the free phase, muestra Sb, seat 0 to lead:
        | seat 0 | 4o 5o 6o 7o 2c 4c |
        | seat 1 | Ao 3c 5c 6c 7c Cc |
        | stock  | Rc                |
      And seat 0 won the last trick
      And the tricks won so far are 7 for side 0 and 6 for side 1
      And the card points so far are 50 for side 0 and 40 for side 1
      When these tricks are played:
        | 4o Ao |
      And the cards are drawn
      Then the draw order is seats 1, 0
      And seat 1 draws Rc
      And seat 0 draws Sb
      And the muestra is gone
      And it is seat 1's turn

    @TWO-04 @S002 @S003
    Scenario: Mano a mano the winner of a free trick draws the top card and the loser the next one
      Given a deal by seat 0:
        | seat 0  | 6o 3e 5b Cc Rc 6e                                                                  |
        | seat 1  | 2e Re 7c 6b Rb 2b                                                                  |
        | muestra | 5e                                                                                 |
        | stock   | 3b 5o 6c 7e Cb Se 4e 2c 3c 7b 4o Ae 7o So 4b Ab Co 5c Sb Ac Ce Ao Sc Ro 2o 4c 3o |
      When these tricks are played:
        | 7c 6o |
      And the cards are drawn
      Then seat 1 wins the trick
      And the draw order is seats 1, 0
      And seat 1 draws 3b
      And seat 0 draws 5o
      And 26 cards are left to draw

  Rule: TWO-06 Mano a mano a coto is three points won by one player

    @TWO-06 @S004 @points_per_coto=3
    Scenario: A player at two points who wins the hand wins the coto
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | Ao |
        | seat 1 | 4o |
      And seat 0 won the last trick
      And the tricks won so far are 12 for side 0 and 7 for side 1
      And the card points so far are 95 for side 0 and 14 for side 1
      And the match stands at 2 points to 1 and 0 cotos to 0
      When these tricks are played:
        | Ao 4o |
      Then side 0 has 116 points in the hand
      And side 0 wins the point
      And side 0 wins the coto
      And the state field "match.cotos.0" is 1
      And the hand is over because of over_100 under rule SCORE-06

  Rule: TWO-07 Mano a mano there is no partner: the second player must beat or trump whenever he can

    @TWO-07 @S002 @S003 @S004
    Scenario: In the arrastre the second player holding a higher card of the suit led may play only that card
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 4o Rc |
        | seat 1 | Ao 2o |
      And seat 0 won the last trick
      When seat 0 plays 4o
      Then seat 1 may play exactly Ao

    @TWO-07 @S002 @S003 @S004 @renuncio_handling=block
    Scenario: In the arrastre the second player may not follow under the card led when he can beat it
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 4o Rc |
        | seat 1 | Ao 2o |
      And seat 0 won the last trick
      When seat 0 plays 4o
      And seat 1 tries to play 2o
      Then the action is refused as MUST_BEAT

    @TWO-07 @S002 @S003
    Scenario: In the arrastre the second player void in the suit led must trump
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 4o Rc |
        | seat 1 | 2b 3c |
      And seat 0 won the last trick
      When seat 0 plays 4o
      Then seat 1 may play exactly 2b

    @TWO-07 @S002 @S003 @renuncio_handling=block
    Scenario: In the arrastre the second player void in the suit led may not discard while holding a trump
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 4o Rc |
        | seat 1 | 2b 3c |
      And seat 0 won the last trick
      When seat 0 plays 4o
      And seat 1 tries to play 3c
      Then the action is refused as MUST_TRUMP under rule ARR-03

    @TWO-07 @S002 @S003 @S004
    Scenario: Mano a mano only the player who won the last trick may sing
      Given a hand in the free phase, muestra 4o, seat 1 to lead:
        | seat 0 | Rc Sc 2e 4e 5e 6e |
        | seat 1 | Re Se 2c 4c 5c 6c |
        | stock  | 7e                |
      And seat 1 won the last trick
      And the tricks won so far are 6 for side 0 and 7 for side 1
      Then seat 1 may sing espadas
      And seat 0 may not sing copas
      When seat 0 tries to sing copas
      Then the action is refused as CANTE_NO_WON_TRICK under rule CANTE-05

    @TWO-07 @S004
    Scenario: Mano a mano the opponent is not told the suit of a twenty sung in the arrastre
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | Rc Sc 4e |
        | seat 1 | 2e 5e 6e |
      And seat 0 won the last trick
      And the tricks won so far are 10 for side 0 and 7 for side 1
      When seat 0 sings copas
      Then side 0 has 20 cante points
      And seat 1 sees "cantes" as [{"seat": 0, "side": 0, "suit": null, "value": 20, "arrastre": true}]
      And seat 0 sees "cantes" as [{"seat": 0, "side": 0, "suit": "c", "value": 20, "arrastre": true}]
