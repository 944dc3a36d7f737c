Feature: Regional decks of 48 and 36 cards
  S000 mentions two regional decks: the whole 48-card Spanish deck, 8s and 9s included, in
  the Rincón de Ademuz, and a 36-card deck without the 2s in parts of Castellón. It says
  nothing more about them. Everything else here is derived from the rules of the 40-card
  game or chosen by the project where no source speaks: where the 9 and 8 rank (two
  readings, both interpretation), their points, the size of the stock and the number of
  tricks, and what becomes of the exchange of the 7 with these decks.

  The deals that take every trick for seat 0 give seat 0 the As of oros and all the bastos
  but the muestra, a low basto that the last draw hands to seat 3.

  Rule: REGION-01 The 48-card deck adds the 8 and the 9 to each suit, twelve cards a suit

    @REGION-01 @DECK-03 @S000 @deck=48
    Scenario: The cards won over a whole hand with the 48-card deck are the forty cards plus the 8s and 9s
      Given a deal by seat 3:
        | seat 0  | Ao Ab 3b 4b 5b 6b                                                    |
        | seat 1  | 2o 3o 4o 5o 6o 7o                                                    |
        | seat 2  | 8o 9o So Co Ro Ac                                                    |
        | seat 3  | 2c 3c 4c 5c 6c 7c                                                    |
        | muestra | 2b                                                                   |
        | stock   | 7b 8c 9c Sc 8b Cc Rc Ae 9b 2e 3e 4e Sb 5e 6e 7e Cb 8e 9e Se Rb Ce Re |
      When the rest of the hand is played, each seat playing its first legal card in deck order
      Then the state field "won_cards.0" is ["Ao", "2o", "3o", "4o", "5o", "6o", "7o", "8o", "9o", "So", "Co", "Ro", "Ac", "2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c", "Sc", "Cc", "Rc", "Ae", "2e", "3e", "4e", "5e", "6e", "7e", "8e", "9e", "Se", "Ce", "Re", "Ab", "2b", "3b", "4b", "5b", "6b", "7b", "8b", "9b", "Sb", "Cb", "Rb"]
      And the state field "won_cards.1" is []

  Rule: REGION-02 The 36-card deck leaves out the 2s, nine cards a suit

    @REGION-02 @DECK-04 @S000 @deck=36
    Scenario: The cards won over a whole hand with the 36-card deck are the forty cards without the 2s
      Given a deal by seat 3:
        | seat 0  | Ao Ab 3b 5b 6b 7b                |
        | seat 1  | 3o 4o 5o 6o 7o So                |
        | seat 2  | Co Ro Ac 3c 4c 5c                |
        | seat 3  | 6c 7c Sc Cc Rc Ae                |
        | muestra | 4b                               |
        | stock   | Sb 3e 4e 5e Cb 6e 7e Se Rb Ce Re |
      When the rest of the hand is played, each seat playing its first legal card in deck order
      Then the state field "won_cards.0" is ["Ao", "3o", "4o", "5o", "6o", "7o", "So", "Co", "Ro", "Ac", "3c", "4c", "5c", "6c", "7c", "Sc", "Cc", "Rc", "Ae", "3e", "4e", "5e", "6e", "7e", "Se", "Ce", "Re", "Ab", "3b", "4b", "5b", "6b", "7b", "Sb", "Cb", "Rb"]
      And the state field "won_cards.1" is []

  Rule: REGION-03 In the 48-card deck the 9 and 8 rank either just below the Caballo or just below the 7

    @REGION-03 @DECK-03 @interpretation @deck=48 @rank_8_9=below_caballo
    Scenario: With the 9 and 8 ranked below the Caballo, a 9 beats the 7 of the suit led
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 9o |
        | seat 1 | 7o |
        | seat 2 | 8o |
        | seat 3 | 6o |
      When these tricks are played:
        | 9o 7o 8o 6o |
      Then seat 0 wins the trick

    @REGION-03 @DECK-03 @interpretation @deck=48 @rank_8_9=below_seven
    Scenario: With the 9 and 8 ranked below the 7, the 7 beats a 9 of the suit led
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 9o |
        | seat 1 | 7o |
        | seat 2 | 8o |
        | seat 3 | 6o |
      When these tricks are played:
        | 9o 7o 8o 6o |
      Then seat 1 wins the trick

    @REGION-03 @DECK-03 @interpretation @deck=48 @rank_8_9=below_caballo
    Scenario: With the 9 and 8 ranked below the Caballo, a seat holding the 7 and the 8 must beat a 7 led with the 8
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 7c 2o |
        | seat 1 | 8c 4c |
        | seat 2 | 5c 3o |
        | seat 3 | 6c 4o |
      When seat 0 plays 7c
      Then seat 1 may play exactly 8c

    @REGION-03 @DECK-03 @interpretation @deck=48 @rank_8_9=below_seven
    Scenario: With the 9 and 8 ranked below the 7, a seat holding the 8 cannot beat a 7 led and may follow with either card
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 7c 2o |
        | seat 1 | 8c 4c |
        | seat 2 | 5c 3o |
        | seat 3 | 6c 4o |
      When seat 0 plays 7c
      Then seat 1 may play exactly 8c 4c

  Rule: REGION-04 In either reading the 9 ranks above the 8, and both rank below the Caballo and above the 6

    @REGION-04 @DECK-03 @interpretation @deck=48
    Scenario: The Caballo beats the 9 and the 8 of the suit led
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 9o |
        | seat 1 | Co |
        | seat 2 | 8o |
        | seat 3 | 2o |
      When these tricks are played:
        | 9o Co 8o 2o |
      Then seat 1 wins the trick

    @REGION-04 @DECK-03 @interpretation @deck=48
    Scenario: The 9 beats the 8, which beats the 6
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6o |
        | seat 1 | 8o |
        | seat 2 | 9o |
        | seat 3 | 2o |
      When these tricks are played:
        | 6o 8o 9o 2o |
      Then seat 2 wins the trick

  Rule: REGION-05 The 8 and the 9 carry no points

    @REGION-05 @DECK-03 @interpretation @deck=48
    Scenario: A trick of two 9s and two 8s carries no points
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 9o |
        | seat 1 | 8o |
        | seat 2 | 9c |
        | seat 3 | 8e |
      And the card points so far are 60 for side 0 and 60 for side 1
      When these tricks are played:
        | 9o 8o 9c 8e |
      Then seat 0 wins the trick
      And the trick carries 0 points
      And side 0 has 60 card points

  Rule: REGION-06 With 48 or 36 cards the cards still add up to 120 points

    @REGION-06 @DECK-03 @interpretation @deck=48
    Scenario: A side that takes every trick with the 48-card deck has 120 card points and 130 in the hand
      Given a deal by seat 3:
        | seat 0  | Ao Ab 3b 4b 5b 6b                                                    |
        | seat 1  | 2o 3o 4o 5o 6o 7o                                                    |
        | seat 2  | 8o 9o So Co Ro Ac                                                    |
        | seat 3  | 2c 3c 4c 5c 6c 7c                                                    |
        | muestra | 2b                                                                   |
        | stock   | 7b 8c 9c Sc 8b Cc Rc Ae 9b 2e 3e 4e Sb 5e 6e 7e Cb 8e 9e Se Rb Ce Re |
      When the rest of the hand is played, each seat playing its first legal card in deck order
      Then side 0 has 120 card points
      And side 0 has 130 points in the hand
      And side 1 has 0 card points

    @REGION-06 @DECK-04 @interpretation @deck=36
    Scenario: A side that takes every trick with the 36-card deck has 120 card points and 130 in the hand
      Given a deal by seat 3:
        | seat 0  | Ao Ab 3b 5b 6b 7b                |
        | seat 1  | 3o 4o 5o 6o 7o So                |
        | seat 2  | Co Ro Ac 3c 4c 5c                |
        | seat 3  | 6c 7c Sc Cc Rc Ae                |
        | muestra | 4b                               |
        | stock   | Sb 3e 4e 5e Cb 6e 7e Se Rb Ce Re |
      When the rest of the hand is played, each seat playing its first legal card in deck order
      Then side 0 has 120 card points
      And side 0 has 130 points in the hand
      And side 1 has 0 card points

  Rule: REGION-07 With 48 cards and four players 24 cards are left to draw: six free tricks, then six of arrastre

    @REGION-07 @DECK-03 @S000 @deck=48
    Scenario: Dealing the 48-card deck to four players leaves 24 cards to draw with the 25th card as muestra
      Given the deck, top card first, dealt by seat 3:
        | 6o 6b 3c Rc 6c Ac |
        | Ab 2e Co 2c Rb Ao |
        | Ce 5c Cb Cc 3e 2b |
        | Se 5e Sc 3b So 7e |
        | 9e ...            |
      Then 24 cards are left to draw
      And the muestra is 9e
      And the trump suit is espadas

    @REGION-07 @DECK-03 @S000 @deck=48
    Scenario: With 48 cards the sixth trick and its draw start the arrastre, and the hand has twelve tricks
      Given a deal by seat 3:
        | seat 0  | Ao Ab 3b 4b 5b 6b                                                    |
        | seat 1  | 2o 3o 4o 5o 6o 7o                                                    |
        | seat 2  | 8o 9o So Co Ro Ac                                                    |
        | seat 3  | 2c 3c 4c 5c 6c 7c                                                    |
        | muestra | 2b                                                                   |
        | stock   | 7b 8c 9c Sc 8b Cc Rc Ae 9b 2e 3e 4e Sb 5e 6e 7e Cb 8e 9e Se Rb Ce Re |
      When these tricks are played:
        | Ao 2o 8o 2c |
        | Ab 3o 9o 3c |
        | 3b 4o So 4c |
        | 4b 5o Co 5c |
        | 5b 6o Ro 6c |
      And the cards are drawn
      Then the phase is free
      And 4 cards are left to draw
      When these tricks are played:
        | 6b 7o Ac 7c |
      And the cards are drawn
      Then the phase is arrastre
      And seat 3 draws 2b
      And seat 0 holds 7b 8b 9b Sb Cb Rb
      When the rest of the hand is played, each seat playing its first legal card in deck order
      Then the state field "tricks_played" is 12

  Rule: REGION-08 With 36 cards and four players 12 cards are left to draw: three free tricks, then six of arrastre

    @REGION-08 @DECK-04 @S000 @deck=36
    Scenario: Dealing the 36-card deck to four players leaves 12 cards to draw with the 25th card as muestra
      Given the deck, top card first, dealt by seat 3:
        | 6o 6b 3c Rc 6c Ac |
        | Ab 3e Co 4c Rb Ao |
        | Ce 5c Cb Cc 7e 4b |
        | Se 5e Sc 3b So 4e |
        | 7b ...            |
      Then 12 cards are left to draw
      And the muestra is 7b
      And the trump suit is bastos

    @REGION-08 @DECK-04 @S000 @deck=36
    Scenario: With 36 cards the third trick and its draw start the arrastre, and the hand has nine tricks
      Given a deal by seat 3:
        | seat 0  | Ao Ab 3b 5b 6b 7b                |
        | seat 1  | 3o 4o 5o 6o 7o So                |
        | seat 2  | Co Ro Ac 3c 4c 5c                |
        | seat 3  | 6c 7c Sc Cc Rc Ae                |
        | muestra | 4b                               |
        | stock   | Sb 3e 4e 5e Cb 6e 7e Se Rb Ce Re |
      When these tricks are played:
        | Ao 3o Co 6c |
        | Ab 4o Ro 7c |
      And the cards are drawn
      Then the phase is free
      And 4 cards are left to draw
      When these tricks are played:
        | 3b 5o Ac Sc |
      And the cards are drawn
      Then the phase is arrastre
      And seat 3 draws 4b
      And seat 0 holds 5b 6b 7b Sb Cb Rb
      When the rest of the hand is played, each seat playing its first legal card in deck order
      Then the state field "tricks_played" is 9

  Rule: REGION-09 With 48 cards mano a mano 36 cards are left to draw and a hand has 24 tricks

    @REGION-09 @DECK-03 @interpretation @deck=48 @players=2
    Scenario: Mano a mano the 48-card deck leaves 36 cards to draw and gives a hand of 24 tricks
      Given a deal by seat 1:
        | seat 0  | 9o Ac 2e 8b Sb 5c |
        | seat 1  | 3o Rc 8e 9b 6b Co |
        | muestra | 7e                |
      Then 36 cards are left to draw
      When the rest of the hand is played, each seat playing its first legal card in deck order
      Then the state field "tricks_played" is 24

  Rule: REGION-10 With 36 cards mano a mano 24 cards are left to draw and a hand has 18 tricks

    @REGION-10 @DECK-04 @interpretation @deck=36 @players=2
    Scenario: Mano a mano the 36-card deck leaves 24 cards to draw and gives a hand of 18 tricks
      Given a deal by seat 1:
        | seat 0  | 4o Ac 3e Cb Sb 5c |
        | seat 1  | 3o Rc Ce Ab 6b Co |
        | muestra | 7e                |
      Then 24 cards are left to draw
      When the rest of the hand is played, each seat playing its first legal card in deck order
      Then the state field "tricks_played" is 18

  Rule: REGION-11 In the 36-card deck a muestra that is the 7 is taken by no card, or by the 4 if the dos is read as the lowest trump

    @REGION-11 @DECK-04 @interpretation @deck=36 @seven_is_muestra=swap_with_two
    Scenario: With 36 cards and a 7 as muestra, even the holder of the lowest trump who won the trick may not exchange
      Given a hand in the free phase, muestra 7b, seat 0 to lead:
        | seat 0 | 4b 3o 4o 5o 6o |
        | seat 1 | 3c 4c 5c 6c 7c |
        | seat 2 | 3e 4e 5e 6e 7e |
        | seat 3 | 7o So Co Ro Sc |
        | stock  | Cc Rc Ac       |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      And the card points so far are 35 for side 0 and 26 for side 1
      Then seat 0 may not exchange for the muestra
      And seat 2 may not exchange for the muestra
      When seat 0 tries to exchange for the muestra
      Then the action is refused as EXCHANGE_MUESTRA_NOT_ELIGIBLE

    # B-40: S002's dos read as the lowest trump of the deck in use, which with 36 cards is the 4.
    @REGION-11 @SEVEN-09 @DECK-04 @interpretation @deck=36 @seven_is_muestra=swap_with_lowest
    Scenario: With 36 cards and a 7 as muestra, reading the dos as the lowest trump, the holder of the 4 may take the 7
      Given a hand in the free phase, muestra 7b, seat 0 to lead:
        | seat 0 | 4b 3o 4o 5o 6o |
        | seat 1 | 3c 4c 5c 6c 7c |
        | seat 2 | 3e 4e 5e 6e 7e |
        | seat 3 | 7o So Co Ro Sc |
        | stock  | Cc Rc Ac       |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      And the card points so far are 35 for side 0 and 26 for side 1
      Then seat 0 may exchange for the muestra
      When seat 0 exchanges for the muestra
      Then seat 0 holds 7b 3o 4o 5o 6o
      And the muestra is 4b

  Rule: REGION-12 With 48 cards a muestra 9 or 8 may be taken with the 7 only if any card above the 7 will do

    # Only S000 mentions the 48-card deck, and S002/S003/S004's condition (a higher card) is applied to it.
    @REGION-12 @DECK-03 @interpretation @deck=48 @rank_8_9=below_caballo @seven_exchange_min=higher_than_seven
    Scenario: With the 9 above the 7 and any higher card allowed, the 7 may take a muestra 9
      Given a hand in the free phase, muestra 9b, seat 0 to lead:
        | seat 0 | 7b 2o 3o 4o 5o |
        | seat 1 | 2c 3c 4c 5c 6c |
        | seat 2 | 2e 3e 4e 5e 6e |
        | seat 3 | 6o 7o 8o 9o So |
        | stock  | Co Ro Ac       |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 3 for side 0 and 3 for side 1
      And the card points so far are 40 for side 0 and 30 for side 1
      Then seat 0 may exchange for the muestra
      When seat 0 exchanges for the muestra
      Then seat 0 holds 9b 2o 3o 4o 5o
      And the muestra is 7b

    @REGION-12 @DECK-03 @S000 @interpretation @deck=48 @rank_8_9=below_caballo @seven_exchange_min=value_card
    Scenario: With only cards with points exchangeable, the 7 may not take a muestra 8 although the 8 ranks above it
      Given a hand in the free phase, muestra 8b, seat 0 to lead:
        | seat 0 | 7b 2o 3o 4o 5o |
        | seat 1 | 2c 3c 4c 5c 6c |
        | seat 2 | 2e 3e 4e 5e 6e |
        | seat 3 | 6o 7o 8o 9o So |
        | stock  | Co Ro Ac       |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 3 for side 0 and 3 for side 1
      And the card points so far are 40 for side 0 and 30 for side 1
      Then seat 0 may not exchange for the muestra
      When seat 0 tries to exchange for the muestra
      Then the action is refused as EXCHANGE_MUESTRA_NOT_ELIGIBLE

    @REGION-12 @DECK-03 @interpretation @deck=48 @rank_8_9=below_seven @seven_exchange_min=higher_than_seven
    Scenario: With the 9 ranked below the 7, the 7 may not take a muestra 9 even when any higher card will do
      Given a hand in the free phase, muestra 9b, seat 0 to lead:
        | seat 0 | 7b 2o 3o 4o 5o |
        | seat 1 | 2c 3c 4c 5c 6c |
        | seat 2 | 2e 3e 4e 5e 6e |
        | seat 3 | 6o 7o 8o 9o So |
        | stock  | Co Ro Ac       |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 3 for side 0 and 3 for side 1
      And the card points so far are 40 for side 0 and 30 for side 1
      Then seat 0 may not exchange for the muestra
      When seat 0 tries to exchange for the muestra
      Then the action is refused as EXCHANGE_MUESTRA_NOT_ELIGIBLE

  Rule: REGION-13 With 48 cards the card exchanged for the muestra is still the 7 of trumps

    @REGION-13 @DECK-03 @interpretation @deck=48
    Scenario: With 48 cards a player holding the 7, 8 and 9 of trumps gives up the 7 for a muestra As
      Given a hand in the free phase, muestra Ab, seat 0 to lead:
        | seat 0 | 7b 8b 9b 4o 5o |
        | seat 1 | 2c 3c 4c 5c 6c |
        | seat 2 | 2e 3e 4e 5e 6e |
        | seat 3 | 6o 7o 8o 9o So |
        | stock  | Co Ro Ac       |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 3 for side 0 and 3 for side 1
      And the card points so far are 40 for side 0 and 29 for side 1
      When seat 0 exchanges for the muestra
      Then seat 0 holds Ab 8b 9b 4o 5o
      And the muestra is 7b

    @REGION-13 @DECK-03 @interpretation @deck=48
    Scenario: With 48 cards a player holding the 8 and 9 of trumps but not the 7 may not exchange
      Given a hand in the free phase, muestra Ab, seat 0 to lead:
        | seat 0 | 2b 8b 9b 4o 5o |
        | seat 1 | 2c 3c 4c 5c 6c |
        | seat 2 | 2e 3e 4e 5e 6e |
        | seat 3 | 6o 7o 8o 9o So |
        | stock  | Co Ro Ac       |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 3 for side 0 and 3 for side 1
      And the card points so far are 40 for side 0 and 29 for side 1
      Then seat 0 may not exchange for the muestra
      When seat 0 tries to exchange for the muestra
      Then the action is refused as EXCHANGE_CARD_NOT_HELD under rule SEVEN-01

  Rule: REGION-14 Without the 2s, the 4 is the lowest card of each suit

    @REGION-14 @DECK-04 @S000 @deck=36
    Scenario: With 36 cards the 4 led loses to the 5, the next card up
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 4o |
        | seat 1 | 5o |
        | seat 2 | Ac |
        | seat 3 | 3e |
      When these tricks are played:
        | 4o 5o Ac 3e |
      Then seat 1 wins the trick
      And the trick carries 21 points
