Feature: Cards and deck
  The Spanish deck of 40 cards, the rank of the cards inside a suit, their points and the power of trumps.
  Every scenario runs under every profile; the 48- and 36-card decks are in regional_decks.feature.

  Rule: DECK-05 Inside a suit the As ranks highest, then the 3, Rey, Sota, Caballo, 7, 6, 5, 4 and 2

    @DECK-05 @S000 @S002 @S003
    Scenario: The Tres beats the Rey of the suit led
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | Ro |
        | seat 1 | 3o |
        | seat 2 | 4o |
        | seat 3 | 5o |
      When seat 0 plays Ro
      And seat 1 plays 3o
      And seat 2 plays 4o
      And seat 3 plays 5o
      Then seat 1 wins the trick

    @DECK-05 @S000 @S002 @S003
    Scenario: The As beats the Tres of the suit led
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 3c |
        | seat 1 | 2c |
        | seat 2 | Ac |
        | seat 3 | 4c |
      When these tricks are played:
        | 3c 2c Ac 4c |
      Then seat 2 wins the trick

    @DECK-05 @S000 @S002 @S003
    Scenario: The 4 beats the 2, the lowest card
      Given a hand in the arrastre, trumps in oros, seat 3 to lead:
        | seat 0 | 4e |
        | seat 1 | 5c |
        | seat 2 | 6c |
        | seat 3 | 2e |
      When these tricks are played:
        | 2e 4e 5c 6c |
      Then seat 0 wins the trick

  Rule: DECK-06 The Sota ranks above the Caballo

    @DECK-06 @S000 @S002 @S003
    Scenario: The Sota beats the Caballo of the suit led
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | Ce |
        | seat 1 | Se |
        | seat 2 | 7e |
        | seat 3 | 2e |
      When these tricks are played:
        | Ce Se 7e 2e |
      Then seat 1 wins the trick

    @DECK-06 @S000 @S002 @S003
    Scenario: The Caballo beats the 7
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | 7e |
        | seat 1 | Ce |
        | seat 2 | 6e |
        | seat 3 | 2e |
      When these tricks are played:
        | 7e Ce 6e 2e |
      Then seat 1 wins the trick

  Rule: DECK-07 Card points: As 11, Tres 10, Rey 4, Sota 3, Caballo 2

    @DECK-07 @DECK-08 @S000 @S002 @S003
    Scenario: A trick of As, Tres, Rey and Sota carries 28 points
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | Ao |
        | seat 1 | 3o |
        | seat 2 | Ro |
        | seat 3 | So |
      And the card points so far are 50 for side 0 and 42 for side 1
      When these tricks are played:
        | Ao 3o Ro So |
      Then the trick carries 28 points
      And side 0 has 78 card points
      And side 1 has 42 card points

    @DECK-07 @DECK-08 @S000 @S002 @S003
    Scenario: A trick of Caballo, 7, 6 and 2 carries 2 points
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | Co |
        | seat 1 | 7o |
        | seat 2 | 6o |
        | seat 3 | 2o |
      And the card points so far are 60 for side 0 and 58 for side 1
      When these tricks are played:
        | Co 7o 6o 2o |
      Then the trick carries 2 points
      And side 0 has 62 card points

  Rule: DECK-08 The 7, 6, 5, 4 and 2 carry no points

    @DECK-08 @S000 @S002 @S003
    Scenario: A trick of 7, 5, 4 and 2 carries no points
      Given a hand in the arrastre, trumps in oros, seat 1 to lead:
        | seat 0 | 2c |
        | seat 1 | 5c |
        | seat 2 | 7c |
        | seat 3 | 4c |
      And the card points so far are 70 for side 0 and 50 for side 1
      When these tricks are played:
        | 5c 7c 4c 2c |
      Then seat 2 wins the trick
      And the trick carries 0 points
      And side 0 has 70 card points

  Rule: DECK-01 Guiñote uses the 40-card Spanish deck: four suits of ten cards (As, 2 to 7, Sota, Caballo, Rey), no 8s or 9s

    @DECK-01 @DECK-02 @S000 @S002 @S003 @S004
    Scenario: The cards won over a whole hand are the forty cards of the deck without 8s and 9s
      Given a deal by seat 3:
        | seat 0  | Ao Ab 3b 4b 5b 6b                                |
        | seat 1  | 2o 3o 4o 5o 6o 7o                                |
        | seat 2  | So Co Ro Ac 2c 3c                                |
        | seat 3  | 4c 5c 6c 7c Sc Cc                                |
        | muestra | 2b                                               |
        | stock   | 7b Rc Ae 2e Sb 3e 4e 5e Cb 6e 7e Se Rb Ce Re     |
      When the rest of the hand is played, each seat playing its first legal card in deck order
      Then the state field "tricks_played" is 10
      And the state field "won_cards.0" is ["Ao", "2o", "3o", "4o", "5o", "6o", "7o", "So", "Co", "Ro", "Ac", "2c", "3c", "4c", "5c", "6c", "7c", "Sc", "Cc", "Rc", "Ae", "2e", "3e", "4e", "5e", "6e", "7e", "Se", "Ce", "Re", "Ab", "2b", "3b", "4b", "5b", "6b", "7b", "Sb", "Cb", "Rb"]
      And the state field "won_cards.1" is []

  Rule: DECK-09 The cards of the deck add up to 120 points

    @DECK-09 @S000 @S002 @S003
    Scenario: A side that takes every trick of the hand has 120 card points
      Given a deal by seat 3:
        | seat 0  | Ao Ab 3b 4b 5b 6b                                |
        | seat 1  | 2o 3o 4o 5o 6o 7o                                |
        | seat 2  | So Co Ro Ac 2c 3c                                |
        | seat 3  | 4c 5c 6c 7c Sc Cc                                |
        | muestra | 2b                                               |
        | stock   | 7b Rc Ae 2e Sb 3e 4e 5e Cb 6e 7e Se Rb Ce Re     |
      When the rest of the hand is played, each seat playing its first legal card in deck order
      Then side 0 has 120 card points
      And side 1 has 0 card points

  Rule: DECK-14 At most 230 points are in play in a hand: 120 in cards, 10 de últimas and 100 in cantes

    @DECK-14 @S000 @S002 @S003
    Scenario: A side that takes every trick scores 130 in the hand, the cards and the diez de últimas
      Given a deal by seat 3:
        | seat 0  | Ao Ab 3b 4b 5b 6b                                |
        | seat 1  | 2o 3o 4o 5o 6o 7o                                |
        | seat 2  | So Co Ro Ac 2c 3c                                |
        | seat 3  | 4c 5c 6c 7c Sc Cc                                |
        | muestra | 2b                                               |
        | stock   | 7b Rc Ae 2e Sb 3e 4e 5e Cb 6e 7e Se Rb Ce Re     |
      When the rest of the hand is played, each seat playing its first legal card in deck order
      Then side 0 wins the diez de últimas
      And side 0 has 130 points in the hand
      And side 1 has 0 points in the hand

    @DECK-14 @S000
    Scenario: The forty and the three twenties together make the most a side can sing, 100 points
      Given a hand in the free phase, muestra 2o, seat 0 to lead:
        | seat 0 | Rb Sb Ro So Ao |
        | seat 1 | 3o Ab 3b Cb 6b |
        | seat 2 | Rc Sc 3c 4c 5c |
        | seat 3 | 7o 6o 7b 4e 5e |
        | stock  | 2c 6c 7c       |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 4 for side 0 and 0 for side 1
      And the card points so far are 45 for side 0 and 0 for side 1
      And seat 0 has already sung oros
      And seat 2 has already sung copas
      And seat 0 has already sung espadas
      When seat 0 sings bastos
      Then side 0 has 100 cante points
      And side 0 has 145 points in the hand

  Rule: DECK-10 A trump beats any card of another suit

    @DECK-10 @S000 @S002 @S003
    Scenario: The 2 of trumps takes the As of the suit led
      Given a hand in the free phase, muestra Rb, seat 0 to lead:
        | seat 0 | Ao 4o 5o 6o 7o So |
        | seat 1 | 2b 4c 5c 6c 7c Sc |
        | seat 2 | 2o 4e 5e 6e 7e Se |
        | seat 3 | 3o 2c 3c Ac Cc Rc |
        | stock  | 2e 3e Ae          |
      When these tricks are played:
        | Ao 2b 2o 3o |
      Then seat 1 wins the trick

    @DECK-10 @S000 @S002 @S003
    Scenario: The higher of two trumps takes the trick
      Given a hand in the arrastre, trumps in copas, seat 0 to lead:
        | seat 0 | Ao |
        | seat 1 | 2c |
        | seat 2 | 4c |
        | seat 3 | 3o |
      When these tricks are played:
        | Ao 2c 4c 3o |
      Then seat 2 wins the trick

  Rule: DECK-11 A card of a suit that is neither led nor trump never takes the trick

    @DECK-11 @S000 @S002 @S003
    Scenario: An As of a third suit loses to the 2 of the suit led
      Given a hand in the free phase, muestra Rb, seat 0 to lead:
        | seat 0 | 2o 4o 5o 6o 7o So |
        | seat 1 | Ac 4c 5c 6c 7c Sc |
        | seat 2 | Ae 4e 5e 6e 7e Se |
        | seat 3 | 3c 2c 3e 2e Cc Rc |
        | stock  | Ao 3o Co          |
      When these tricks are played:
        | 2o Ac Ae 3c |
      Then seat 0 wins the trick

  Rule: DECK-12 Trumps keep the usual order and the usual points inside their suit

    @DECK-12 @S000 @S002 @S003
    Scenario: Inside the trump suit the Tres beats the Rey and the trick counts its usual 17 points
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | Ro |
        | seat 1 | 3o |
        | seat 2 | So |
        | seat 3 | 2o |
      And the card points so far are 55 for side 0 and 48 for side 1
      When these tricks are played:
        | Ro 3o So 2o |
      Then seat 1 wins the trick
      And the trick carries 17 points
      And side 1 has 65 card points

    @DECK-12 @S000 @S002 @S003
    Scenario: The As of trumps beats the Tres of trumps
      Given a hand in the arrastre, trumps in espadas, seat 2 to lead:
        | seat 0 | 4e |
        | seat 1 | Ae |
        | seat 2 | 3e |
        | seat 3 | Ce |
      When these tricks are played:
        | 3e Ce 4e Ae |
      Then seat 1 wins the trick
      And the trick carries 23 points
