Feature: Cards and deck
  The Spanish deck, the rank of the cards inside a suit, their points and the power of trumps.
  These rules hold in every source and profile, so every scenario here runs under every profile.

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
      When these tricks are played:
        | Ao 3o Ro So |
      Then the trick carries 28 points
      And side 0 has 28 card points

    @DECK-07 @DECK-08 @S000 @S002 @S003
    Scenario: A trick of Caballo, 7, 6 and 2 carries 2 points
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | Co |
        | seat 1 | 7o |
        | seat 2 | 6o |
        | seat 3 | 2o |
      When these tricks are played:
        | Co 7o 6o 2o |
      Then the trick carries 2 points
      And side 0 has 2 card points

  Rule: DECK-10 A trump beats any card of another suit

    @DECK-10 @S000 @S002 @S003
    Scenario: The 2 of trumps takes the As of the suit led
      Given a hand in the free phase, muestra Rb, seat 0 to lead:
        | seat 0 | Ao 4o 5o 6o 7o So |
        | seat 1 | 2b 4c 5c 6c 7c Sc |
        | seat 2 | 2o 4e 5e 6e 7e Se |
        | seat 3 | 3o 2c 3c Ac Cc Rc |
        | stock  | 2e 3e Ae Ce       |
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

    @DECK-11 @S000
    Scenario: An As of a third suit loses to the 2 of the suit led
      Given a hand in the free phase, muestra Rb, seat 0 to lead:
        | seat 0 | 2o 4o 5o 6o 7o So |
        | seat 1 | Ac 4c 5c 6c 7c Sc |
        | seat 2 | Ae 4e 5e 6e 7e Se |
        | seat 3 | 3c 2c 3e 2e Cc Rc |
        | stock  | Ao 3o Co Ce       |
      When these tricks are played:
        | 2o Ac Ae 3c |
      Then seat 0 wins the trick
