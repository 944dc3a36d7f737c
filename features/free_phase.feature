Feature: Tricks and the free phase
  How a trick is played and won, and the first part of the hand, while cards are left to
  draw: any card may be played, every trick is followed by a draw (winner first), the
  muestra goes to the last player to draw, and the arrastre starts when nothing is left to
  draw. With four players and 40 cards that makes four free tricks and six in the arrastre.

  Most scenarios start from the same deal by seat 3, so seat 0 is mano and bastos are trumps:

    seat 0: Ao 4o 6c Sb 2e 7e     seat 1: 3o 5c Rc 4e Cb 2b
    seat 2: 5o Ac 6e Re 3b 7b     seat 3: 2o 7c Se Ce 4b 6b
    muestra Rb; stock from the top: Sc 3c Ae 6o 7o So Co Ro 2c 4c Cc 3e 5e Ab 5b

  Rule: PLAY-01 A hand of four players has ten tricks

    @PLAY-01 @PLAY-12 @PLAY-13 @PLAY-14 @S000 @S002 @S003
    Scenario: Four free tricks each followed by a draw, then six tricks of arrastre, ten in all
      Given a deal by seat 3:
        | seat 0  | Ao 4o 6c Sb 2e 7e                            |
        | seat 1  | 3o 5c Rc 4e Cb 2b                            |
        | seat 2  | 5o Ac 6e Re 3b 7b                            |
        | seat 3  | 2o 7c Se Ce 4b 6b                            |
        | muestra | Rb                                           |
        | stock   | Sc 3c Ae 6o 7o So Co Ro 2c 4c Cc 3e 5e Ab 5b |
      When these tricks are played:
        | Ao 5c 6e 4b |
        | 2o 4o 3o 5o |
        | Rc Ac 7c 6c |
      And the cards are drawn
      Then the phase is free
      And 4 cards are left to draw
      And the state field "tricks_played" is 3
      When these tricks are played:
        | Re Se 2e Ae |
      And the cards are drawn
      Then the phase is arrastre
      And 0 cards are left to draw
      And the state field "tricks_played" is 4
      And it is seat 1's turn
      And seat 1 holds 7o 3e 4e 5e 2b Cb
      And seat 0 holds Ro 3c Cc 7e Sb Rb
      And seat 2 holds 6o So 2c Ab 3b 7b
      And seat 3 holds Co 4c Sc Ce 5b 6b
      When the rest of the hand is played, each seat playing its first legal card in deck order
      Then the state field "tricks_played" is 10
      And the hand is over because of vueltas under rule SCORE-13

  Rule: PLAY-02 In a trick each player plays one card, in turn

    @PLAY-02 @S000 @S002 @S003
    Scenario: After the four cards of a trick each player holds five cards
      Given a deal by seat 3:
        | seat 0  | Ao 4o 6c Sb 2e 7e |
        | seat 1  | 3o 5c Rc 4e Cb 2b |
        | seat 2  | 5o Ac 6e Re 3b 7b |
        | seat 3  | 2o 7c Se Ce 4b 6b |
        | muestra | Rb                |
      When seat 0 plays Ao
      And seat 1 plays 5c
      And seat 2 plays 6e
      And seat 3 plays 4b
      Then the state field "hand_size.0" is 5
      And the state field "hand_size.1" is 5
      And the state field "hand_size.2" is 5
      And the state field "hand_size.3" is 5

    @PLAY-02 @S000 @S002 @S003
    Scenario: A player who has just played may not add a second card to the trick
      Given a deal by seat 3:
        | seat 0  | Ao 4o 6c Sb 2e 7e |
        | seat 1  | 3o 5c Rc 4e Cb 2b |
        | seat 2  | 5o Ac 6e Re 3b 7b |
        | seat 3  | 2o 7c Se Ce 4b 6b |
        | muestra | Rb                |
      When seat 0 plays Ao
      And seat 0 tries to play 4o
      Then the action is refused as NOT_YOUR_TURN

    @PLAY-02 @S000 @S002 @S003
    Scenario: In the free phase a player out of turn may not play
      Given a deal by seat 3:
        | seat 0  | Ao 4o 6c Sb 2e 7e |
        | seat 1  | 3o 5c Rc 4e Cb 2b |
        | seat 2  | 5o Ac 6e Re 3b 7b |
        | seat 3  | 2o 7c Se Ce 4b 6b |
        | muestra | Rb                |
      When seat 0 plays Ao
      And seat 2 tries to play 5o
      Then the action is refused as NOT_YOUR_TURN
      And seat 2 may play exactly -
      And it is seat 1's turn

    @PLAY-02 @S000 @S002 @S003
    Scenario: A player may not play a card he does not hold
      Given a deal by seat 3:
        | seat 0  | Ao 4o 6c Sb 2e 7e |
        | seat 1  | 3o 5c Rc 4e Cb 2b |
        | seat 2  | 5o Ac 6e Re 3b 7b |
        | seat 3  | 2o 7c Se Ce 4b 6b |
        | muestra | Rb                |
      When seat 0 tries to play 3o
      Then the action is refused as CARD_NOT_IN_HAND under rule PLAY-02

  Rule: PLAY-03 The mano leads to the first trick of the hand

    @PLAY-03 @S000 @S002 @S003
    Scenario: Only the mano may play the first card of the hand
      Given a deal by seat 3:
        | seat 0  | Ao 4o 6c Sb 2e 7e |
        | seat 1  | 3o 5c Rc 4e Cb 2b |
        | seat 2  | 5o Ac 6e Re 3b 7b |
        | seat 3  | 2o 7c Se Ce 4b 6b |
        | muestra | Rb                |
      Then seat 0 may play any card
      And seat 1 may play exactly -
      And seat 2 may play exactly -
      And seat 3 may play exactly -

  Rule: PLAY-04 The winner of a trick leads to the next one

    @PLAY-04 @S000 @S002 @S003
    Scenario: Seat 3 takes the first trick and leads the second
      Given a deal by seat 3:
        | seat 0  | Ao 4o 6c Sb 2e 7e                            |
        | seat 1  | 3o 5c Rc 4e Cb 2b                            |
        | seat 2  | 5o Ac 6e Re 3b 7b                            |
        | seat 3  | 2o 7c Se Ce 4b 6b                            |
        | muestra | Rb                                           |
        | stock   | Sc 3c Ae 6o 7o So Co Ro 2c 4c Cc 3e 5e Ab 5b |
      When these tricks are played:
        | Ao 5c 6e 4b |
      And the cards are drawn
      Then it is seat 3's turn
      And the state field "leader" is 3
      When seat 3 plays 2o
      Then it is seat 0's turn

    @PLAY-04 @S000 @S002 @S003
    Scenario: The leader of the previous trick may not lead again after losing it
      Given a deal by seat 3:
        | seat 0  | Ao 4o 6c Sb 2e 7e                            |
        | seat 1  | 3o 5c Rc 4e Cb 2b                            |
        | seat 2  | 5o Ac 6e Re 3b 7b                            |
        | seat 3  | 2o 7c Se Ce 4b 6b                            |
        | muestra | Rb                                           |
        | stock   | Sc 3c Ae 6o 7o So Co Ro 2c 4c Cc 3e 5e Ab 5b |
      When these tricks are played:
        | Ao 5c 6e 4b |
      And the cards are drawn
      And seat 0 tries to play 4o
      Then the action is refused as NOT_YOUR_TURN

  Rule: PLAY-05 The highest trump takes the trick; without trumps, the highest card of the suit led

    @PLAY-05 @S000 @S002 @S003
    Scenario: Without trumps in the trick the highest card of the suit led wins it
      Given a deal by seat 3:
        | seat 0  | Ao 4o 6c Sb 2e 7e |
        | seat 1  | 3o 5c Rc 4e Cb 2b |
        | seat 2  | 5o Ac 6e Re 3b 7b |
        | seat 3  | 2o 7c Se Ce 4b 6b |
        | muestra | Rb                |
      When these tricks are played:
        | 6c Rc Re 7c |
      Then seat 1 wins the trick
      And the trick carries 8 points

    @PLAY-05 @S000 @S002 @S003
    Scenario: The lowest trump in the trick beats the As of the suit led
      Given a deal by seat 3:
        | seat 0  | Ao 4o 6c Sb 2e 7e |
        | seat 1  | 3o 5c Rc 4e Cb 2b |
        | seat 2  | 5o Ac 6e Re 3b 7b |
        | seat 3  | 2o 7c Se Ce 4b 6b |
        | muestra | Rb                |
      When these tricks are played:
        | Ao 5c 6e 4b |
      Then seat 3 wins the trick
      And the trick carries 11 points

    @PLAY-05 @S000 @S002 @S003
    Scenario: Of three trumps in the trick the highest wins it
      Given a deal by seat 3:
        | seat 0  | Ao 4o 6c Sb 2e 7e |
        | seat 1  | 3o 5c Rc 4e Cb 2b |
        | seat 2  | 5o Ac 6e Re 3b 7b |
        | seat 3  | 2o 7c Se Ce 4b 6b |
        | muestra | Rb                |
      When these tricks are played:
        | 6c 2b 3b 4b |
      Then seat 2 wins the trick
      And the trick carries 10 points

  Rule: PLAY-06 Tricks are won the same way in the free phase and in the arrastre

    @PLAY-06 @PLAY-05 @S000 @S002 @S003
    Scenario: In the arrastre too the higher of two trumps beats the Tres of the suit led
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 4o |
        | seat 1 | 2b |
        | seat 2 | 3o |
        | seat 3 | 6b |
      When these tricks are played:
        | 4o 2b 3o 6b |
      Then seat 3 wins the trick

    @PLAY-06 @PLAY-05 @S000 @S002 @S003
    Scenario: In the arrastre too a card of a third suit loses to the suit led
      Given a hand in the arrastre, trumps in bastos, seat 1 to lead:
        | seat 0 | Ae |
        | seat 1 | 4c |
        | seat 2 | 2c |
        | seat 3 | Ao |
      When these tricks are played:
        | 4c 2c Ao Ae |
      Then seat 1 wins the trick
      And the trick carries 22 points
      And the hand is over because of vueltas under rule SCORE-13

    @PLAY-06 @PLAY-05 @DECK-07 @S000 @S002 @S003
    Scenario: In the arrastre the 2 of espadas, worth nothing, takes seat 2's As of copas and its 25 points
      Given a hand in the arrastre, trumps in espadas, seat 2 to lead:
        | seat 0 | 2e |
        | seat 1 | Rc |
        | seat 2 | Ac |
        | seat 3 | 3c |
      And the card points so far are 50 for side 0 and 45 for side 1
      When these tricks are played:
        | Ac 3c 2e Rc |
      Then seat 0 wins the trick
      And the trick carries 25 points
      And side 0 has 75 card points
      And side 1 has 45 card points

  Rule: PLAY-07 While cards are left to draw any card may be played: no duty to follow suit, beat or trump

    @PLAY-07 @S000 @S002 @S003 @S004
    Scenario: In the free phase a player may discard another suit while holding the suit led
      Given a deal by seat 3:
        | seat 0  | Ao 4o 6c Sb 2e 7e |
        | seat 1  | 3o 5c Rc 4e Cb 2b |
        | seat 2  | 5o Ac 6e Re 3b 7b |
        | seat 3  | 2o 7c Se Ce 4b 6b |
        | muestra | Rb                |
      When seat 0 plays Ao
      Then seat 1 may play any card
      When seat 1 tries to play 5c
      Then the action is accepted

    @PLAY-07 @S000 @S002 @S003 @S004
    Scenario: In the free phase nobody has to beat or trump, so the 2 led takes the trick
      Given a deal by seat 3:
        | seat 0  | Ao 4o 6c Sb 2e 7e |
        | seat 1  | 3o 5c Rc 4e Cb 2b |
        | seat 2  | 5o Ac 6e Re 3b 7b |
        | seat 3  | 2o 7c Se Ce 4b 6b |
        | muestra | Rb                |
      When seat 0 plays 2e
      And seat 1 tries to play 3o
      Then the action is accepted
      When seat 2 tries to play 5o
      Then the action is accepted
      When seat 3 tries to play 2o
      Then the action is accepted
      And seat 0 wins the trick

    @PLAY-07 @S000 @S002 @S003 @S004
    Scenario: In the free phase a player may follow with a low card while holding a higher one
      Given a deal by seat 3:
        | seat 0  | Ao 4o 6c Sb 2e 7e |
        | seat 1  | 3o 5c Rc 4e Cb 2b |
        | seat 2  | 5o Ac 6e Re 3b 7b |
        | seat 3  | 2o 7c Se Ce 4b 6b |
        | muestra | Rb                |
      When seat 0 plays 7e
      And seat 1 plays 4e
      And seat 2 tries to play 6e
      Then the action is accepted
      And seat 3 may play any card

  Rule: PLAY-08 After each free trick all players draw one card, the winner first and then in playing order

    @PLAY-08 @PLAY-18 @S000 @S002 @S003
    Scenario: Seat 3 wins the trick and draws the top card of the stock, then seats 0, 1 and 2
      Given a deal by seat 3:
        | seat 0  | Ao 4o 6c Sb 2e 7e                            |
        | seat 1  | 3o 5c Rc 4e Cb 2b                            |
        | seat 2  | 5o Ac 6e Re 3b 7b                            |
        | seat 3  | 2o 7c Se Ce 4b 6b                            |
        | muestra | Rb                                           |
        | stock   | Sc 3c Ae 6o 7o So Co Ro 2c 4c Cc 3e 5e Ab 5b |
      When these tricks are played:
        | Ao 5c 6e 4b |
      And the cards are drawn
      Then the draw order is seats 3, 0, 1, 2
      And seat 3 draws Sc
      And seat 0 draws 3c
      And seat 1 draws Ae
      And seat 2 draws 6o
      And 12 cards are left to draw
      And the state field "hand_size.2" is 6

    @PLAY-08 @S000 @S002 @S003
    Scenario: A draw before any trick has been played is refused
      Given a deal by seat 3:
        | seat 0  | Ao 4o 6c Sb 2e 7e |
        | seat 1  | 3o 5c Rc 4e Cb 2b |
        | seat 2  | 5o Ac 6e Re 3b 7b |
        | seat 3  | 2o 7c Se Ce 4b 6b |
        | muestra | Rb                |
      When a draw is attempted
      Then the action is refused as NOTHING_TO_DRAW under rule PLAY-08

    @PLAY-08 @S000 @S002 @S003 @deck=40
    Scenario: A second draw after the same trick is refused
      Given a deal by seat 3:
        | seat 0  | Ao 4o 6c Sb 2e 7e |
        | seat 1  | 3o 5c Rc 4e Cb 2b |
        | seat 2  | 5o Ac 6e Re 3b 7b |
        | seat 3  | 2o 7c Se Ce 4b 6b |
        | muestra | Rb                |
      When these tricks are played:
        | Ao 5c 6e 4b |
      And the cards are drawn
      And a draw is attempted
      Then the action is refused as NOTHING_TO_DRAW under rule PLAY-08
      And 12 cards are left to draw

  Rule: PLAY-09 The draw is completed before the next trick is led

    @PLAY-09 @S000 @S002 @S003
    Scenario: The winner of a free trick may not lead before the cards are drawn
      Given a deal by seat 3:
        | seat 0  | Ao 4o 6c Sb 2e 7e |
        | seat 1  | 3o 5c Rc 4e Cb 2b |
        | seat 2  | 5o Ac 6e Re 3b 7b |
        | seat 3  | 2o 7c Se Ce 4b 6b |
        | muestra | Rb                |
      When these tricks are played:
        | Ao 5c 6e 4b |
      Then the cards must be drawn before the next lead
      When seat 3 tries to play 2o
      Then the action is refused as MUST_DRAW_FIRST under rule PLAY-09

    @PLAY-09 @S000 @S002 @S003
    Scenario: Once the cards are drawn the winner leads the card he has just drawn
      Given a deal by seat 3:
        | seat 0  | Ao 4o 6c Sb 2e 7e                            |
        | seat 1  | 3o 5c Rc 4e Cb 2b                            |
        | seat 2  | 5o Ac 6e Re 3b 7b                            |
        | seat 3  | 2o 7c Se Ce 4b 6b                            |
        | muestra | Rb                                           |
        | stock   | Sc 3c Ae 6o 7o So Co Ro 2c 4c Cc 3e 5e Ab 5b |
      When these tricks are played:
        | Ao 5c 6e 4b |
      And the cards are drawn
      Then the cards need not be drawn before the next lead
      When seat 3 tries to play Sc
      Then the action is accepted

    @PLAY-09 @S000 @S002 @S003
    Scenario: In the arrastre no draw follows a trick and the winner leads at once
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 4o 5o |
        | seat 1 | 3o 6o |
        | seat 2 | 2o 7o |
        | seat 3 | Ao So |
      And the card points so far are 40 for side 0 and 56 for side 1
      When these tricks are played:
        | 4o 3o 2o Ao |
      Then the cards need not be drawn before the next lead
      And it is seat 3's turn
      When a draw is attempted
      Then the action is refused as NOTHING_TO_DRAW under rule PLAY-08

  Rule: PLAY-10 The last card drawn is the muestra, taken by the last player to draw

    @PLAY-10 @PLAY-11 @PLAY-13 @PLAY-14 @S000 @S002 @S003
    Scenario: Seat 1 wins the last free trick, seat 0 draws the muestra and the arrastre begins with seat 1 to lead
      Given a hand in the free phase, muestra 2o, seat 0 to lead:
        | seat 0 | 4c Ao 3o Ro So Co |
        | seat 1 | Ac 2c 3c 7c Sc Cc |
        | seat 2 | 5c 4e 5e 6e 7e Se |
        | seat 3 | 6c 4b 5b 6b 7b Sb |
        | stock  | Rc Ce Cb          |
      And seat 0 won the last trick
      And the tricks won so far are 2 for side 0 and 1 for side 1
      And the card points so far are 30 for side 0 and 20 for side 1
      When these tricks are played:
        | 4c Ac 5c 6c |
      Then the phase is free
      When the cards are drawn
      Then the draw order is seats 1, 2, 3, 0
      And seat 1 draws Rc
      And seat 0 draws 2o
      And the muestra is gone
      And 0 cards are left to draw
      And the phase is arrastre
      And an arrastre_begins event happens
      And it is seat 1's turn

    @PLAY-10 @S000 @S002 @S003 @S004
    Scenario: When the winner of the last free trick has exchanged his 7 for the muestra, the last drawer gets the 7
      Given a hand in the free phase, muestra Ab, seat 3 to lead:
        | seat 0 | 5o 2c 4c 5c 6c 7c |
        | seat 1 | 6o 2e 4e 5e 6e 7e |
        | seat 2 | Ro 7b 3b Sb Cb Rb |
        | seat 3 | 4o Sc Cc Rc Se Ce |
        | stock  | 3c Re 2b          |
      And seat 3 won the last trick
      And the tricks won so far are 1 for side 0 and 2 for side 1
      When these tricks are played:
        | 4o 5o 6o Ro |
      And seat 2 exchanges for the muestra
      Then the muestra is 7b
      And the trump suit is bastos
      And 4 cards are left to draw
      When the cards are drawn
      Then the draw order is seats 2, 3, 0, 1
      And seat 1 draws 7b
      And seat 2 holds Ab 3b Sb Cb Rb 3c
      And the muestra is gone
      And the phase is arrastre

  Rule: PLAY-11 With four players the muestra goes to the fourth player from the winner of the last free trick, an opponent of his

    @PLAY-11 @S000 @S002 @S003
    Scenario: Seat 2 wins the last free trick and the muestra goes to seat 1, on the other side
      Given a hand in the free phase, muestra Rb, seat 3 to lead:
        | seat 0 | 5o 2c 4c 5c 6c 7c |
        | seat 1 | 6o 2e 4e 5e 6e 7e |
        | seat 2 | Ro 7b 3b Sb Cb Ab |
        | seat 3 | 4o Sc Cc Rc Se Ce |
        | stock  | 3c Re 2b          |
      When these tricks are played:
        | 4o 5o 6o Ro |
      And the cards are drawn
      Then seat 1 draws Rb
      And seat 1 holds 2e 4e 5e 6e 7e Rb

  Rule: PLAY-12 With four players and 40 cards the first four tricks are free and the last six are arrastre

    @PLAY-12 @S000 @S002 @S003
    Scenario: After the fourth trick and its draw each player holds six cards for six tricks of arrastre
      Given a hand in the free phase, muestra 2o, seat 0 to lead:
        | seat 0 | 4c Ao 3o Ro So Co |
        | seat 1 | Ac 2c 3c 7c Sc Cc |
        | seat 2 | 5c 4e 5e 6e 7e Se |
        | seat 3 | 6c 4b 5b 6b 7b Sb |
        | stock  | Rc Ce Cb          |
      And seat 0 won the last trick
      And the tricks won so far are 2 for side 0 and 1 for side 1
      And the card points so far are 30 for side 0 and 20 for side 1
      When these tricks are played:
        | 4c Ac 5c 6c |
      And the cards are drawn
      Then the state field "tricks_played" is 4
      And the state field "hand_size.0" is 6
      And the state field "hand_size.1" is 6
      And the state field "hand_size.2" is 6
      And the state field "hand_size.3" is 6
      When the rest of the hand is played, each seat playing its first legal card in deck order
      Then the state field "tricks_played" is 10
      And the hand is over because of vueltas under rule SCORE-13

  Rule: PLAY-13 The arrastre starts when the stock and the muestra are exhausted

    @PLAY-13 @S000 @S002 @S003
    Scenario: With the muestra and three cards left to draw the hand is still in the free phase
      Given a hand in the free phase, muestra 2o, seat 0 to lead:
        | seat 0 | 4c Ao 3o Ro So Co |
        | seat 1 | Ac 2c 3c 7c Sc Cc |
        | seat 2 | 5c 4e 5e 6e 7e Se |
        | seat 3 | 6c 4b 5b 6b 7b Sb |
        | stock  | Rc Ce Cb          |
      When these tricks are played:
        | 4c Ac 5c 6c |
      Then the phase is free
      And 4 cards are left to draw
      And an arrastre_begins event does not happen
      And seat 1 may play exactly -

    @PLAY-13 @ARR-01 @S000 @S002 @S003
    Scenario: The first trick after the draw that takes the muestra is already played under the duties of the arrastre
      Given a hand in the free phase, muestra Cb, seat 0 to lead:
        | seat 0 | 5o 3c 7e 2e 4b Ae |
        | seat 1 | 6o 2c Rc 6e 5b 3e |
        | seat 2 | 7o Co 4e 5e 6b 7c |
        | seat 3 | 4c 2o Ro 5c Ce Sb |
        | stock  | 6c Se Ac          |
      And seat 0 won the last trick
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When these tricks are played:
        | 5o 2c 7o 4c |
      And the cards are drawn
      Then the phase is arrastre
      And it is seat 2's turn
      When seat 2 plays 7c
      Then seat 3 may play exactly 5c

  Rule: PLAY-14 The winner of the last free trick leads to the first trick of the arrastre

    # Under S004's faults (renuncio_faults=out_of_turn) the card out of turn would stand as a renuncio (RENUNCIO-04).
    @PLAY-14 @S000 @renuncio_faults=play_duties
    Scenario: Only the winner of the last free trick may lead the first trick of the arrastre
      Given a hand in the free phase, muestra 2o, seat 0 to lead:
        | seat 0 | 4c Ao 3o Ro So Co |
        | seat 1 | Ac 2c 3c 7c Sc Cc |
        | seat 2 | 5c 4e 5e 6e 7e Se |
        | seat 3 | 6c 4b 5b 6b 7b Sb |
        | stock  | Rc Ce Cb          |
      When these tricks are played:
        | 4c Ac 5c 6c |
      And the cards are drawn
      Then seat 1 may play any card
      When seat 0 tries to play Ao
      Then the action is refused as NOT_YOUR_TURN

  Rule: PLAY-15 The leader may lead any card, trumps included, in either phase

    @PLAY-15 @S000
    Scenario: The mano may lead a trump in the free phase
      Given a deal by seat 3:
        | seat 0  | Ao 4o 6c Sb 2e 7e |
        | seat 1  | 3o 5c Rc 4e Cb 2b |
        | seat 2  | 5o Ac 6e Re 3b 7b |
        | seat 3  | 2o 7c Se Ce 4b 6b |
        | muestra | Rb                |
      When seat 0 tries to play Sb
      Then the action is accepted

    @PLAY-15 @S000
    Scenario: The leader in the arrastre may lead any card of his hand, a trump among them
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | Ab 4o 6c |
        | seat 1 | 2b 5o 7c |
        | seat 2 | 3b Co Rc |
        | seat 3 | 4b 2o Sc |
      Then seat 0 may play any card
      When seat 0 tries to play Ab
      Then the action is accepted

  Rule: PLAY-16 Tricks won by either partner belong to the partnership

    @PLAY-16 @S000 @S004
    Scenario: The cards taken by seat 0 and by seat 2 are counted together for side 0
      Given a deal by seat 3:
        | seat 0  | Ao 4o 6c Sb 2e 7e                            |
        | seat 1  | 3o 5c Rc 4e Cb 2b                            |
        | seat 2  | 5o Ac 6e Re 3b 7b                            |
        | seat 3  | 2o 7c Se Ce 4b 6b                            |
        | muestra | Rb                                           |
        | stock   | Sc 3c Ae 6o 7o So Co Ro 2c 4c Cc 3e 5e Ab 5b |
      When these tricks are played:
        | Ao 5c 6e 2o |
        | 6c 3c Ac 7c |
      Then seat 2 wins the trick
      And side 0 has 32 card points
      And side 1 has 0 card points
      And the state field "won_cards.0" is ["Ao", "5c", "6e", "2o", "6c", "3c", "Ac", "7c"]
      And the state field "tricks_won.0" is 2

  Rule: PLAY-17 The last player to beat the winning card takes the trick; if nobody beats the lead, the leader takes it

    @PLAY-17 @S000
    Scenario: Nobody beats the As led, so the leader takes the trick
      Given a deal by seat 3:
        | seat 0  | Ao 4o 6c Sb 2e 7e |
        | seat 1  | 3o 5c Rc 4e Cb 2b |
        | seat 2  | 5o Ac 6e Re 3b 7b |
        | seat 3  | 2o 7c Se Ce 4b 6b |
        | muestra | Rb                |
      When these tricks are played:
        | Ao 3o 5o 2o |
      Then seat 0 wins the trick
      And the trick carries 21 points

    @PLAY-17 @S000
    Scenario: Seat 1 beats the lead and seat 3 beats seat 1 with a trump, so seat 3 takes the trick
      Given a deal by seat 3:
        | seat 0  | Ao 4o 6c Sb 2e 7e |
        | seat 1  | 3o 5c Rc 4e Cb 2b |
        | seat 2  | 5o Ac 6e Re 3b 7b |
        | seat 3  | 2o 7c Se Ce 4b 6b |
        | muestra | Rb                |
      When these tricks are played:
        | 4o 3o 5o 4b |
      Then seat 3 wins the trick
      And the trick carries 10 points

  Rule: PLAY-18 Cards are drawn from the top of the stock

    @PLAY-18 @S000 @S002 @S003
    Scenario: The second draw of the hand takes the fifth to eighth cards of the stock
      Given a deal by seat 3:
        | seat 0  | Ao 4o 6c Sb 2e 7e                            |
        | seat 1  | 3o 5c Rc 4e Cb 2b                            |
        | seat 2  | 5o Ac 6e Re 3b 7b                            |
        | seat 3  | 2o 7c Se Ce 4b 6b                            |
        | muestra | Rb                                           |
        | stock   | Sc 3c Ae 6o 7o So Co Ro 2c 4c Cc 3e 5e Ab 5b |
      When these tricks are played:
        | Ao 5c 6e 4b |
        | 2o 4o 3o 5o |
      And the cards are drawn
      Then the draw order is seats 1, 2, 3, 0
      And seat 1 draws 7o
      And seat 2 draws So
      And seat 3 draws Co
      And seat 0 draws Ro

  Rule: PLAY-19 The diez de últimas go to the final trick of the hand, not to the last trick before the arrastre

    @PLAY-19 @S000 @S002 @S003 @S004
    Scenario: Side 1 takes the last free trick without bonus and side 0 takes the final trick with the diez de últimas
      Given a hand in the free phase, muestra 2o, seat 0 to lead:
        | seat 0 | 4c Ao 3o Ro So Co |
        | seat 1 | Ac 2c 3c 7c Sc Cc |
        | seat 2 | 5c 4e 5e 6e 7e Se |
        | seat 3 | 6c 4b 5b 6b 7b Sb |
        | stock  | Rc Ce Cb          |
      And seat 0 won the last trick
      And the tricks won so far are 2 for side 0 and 1 for side 1
      And the card points so far are 30 for side 0 and 20 for side 1
      When these tricks are played:
        | 4c Ac 5c 6c |
      And the cards are drawn
      Then the state field "ultimas" is null
      And side 1 has 31 points in the hand
      When the rest of the hand is played, each seat playing its first legal card in deck order
      Then side 0 wins the diez de últimas
      And side 0 has 89 card points
      And side 0 has 99 points in the hand
      And side 1 has 31 points in the hand
      And the hand is over because of vueltas under rule SCORE-13
