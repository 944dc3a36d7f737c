Feature: Seats, dealer and the deal
  Who sits where, who deals and who is mano, how the six cards reach each player, and how
  the muestra fixes the trump suit for the hand. Seats are numbered in playing order: the
  seat after seat N (seat 0 after seat 3) plays next, which at the table is the player on
  N's right. How the first dealer is chosen, the shuffle, the cut and misdeals are table
  procedures that the scenarios cannot reach: the harness always gives the engine a deck
  order or a finished deal, so those rules are listed in the index as not executable.

  Rule: PRE-01 Four players form two partnerships, partners sitting opposite each other

    @PRE-01 @S000 @S002 @S003 @S004
    Scenario: A trick taken by seat 2 counts for side 0 and one taken by seat 1 for side 1
      Given a deal by seat 3:
        | seat 0  | Ao 4o 6c Sb 2e 7e |
        | seat 1  | 3o 5c Rc 4e Cb 2b |
        | seat 2  | 5o Ac 6e Re 3b 7b |
        | seat 3  | 2o 7c Se Ce 4b 6b |
        | muestra | Rb                |
        | stock   | Sc 3c Ae 6o 7o So Co Ro 2c 4c Cc 3e 5e Ab 5b |
      When these tricks are played:
        | 6c 5c Ac 7c |
        | 5o 2o 4o 3o |
      Then seat 1 wins the trick
      And side 0 has 11 card points
      And side 1 has 10 card points
      And the state field "tricks_won.0" is 1
      And the state field "tricks_won.1" is 1

  Rule: PRE-02 The game is also played by two players, mano a mano

    @PRE-02 @S002 @S003 @S004 @players=2
    Scenario: A two-player table has seats 0 and 1, each dealt six cards
      Given a deal by seat 1:
        | seat 0  | Cc So 4e 7o Ac 5e |
        | seat 1  | 7c 3e 2e 7e 4b 6c |
        | muestra | Sb                |
      Then the state field "players" is 2
      And the state field "hand_size.0" is 6
      And the state field "hand_size.1" is 6
      And it is seat 0's turn

    @PRE-02 @S000 @S002 @S003 @S004 @players=4
    Scenario: A four-player table has seats 0 to 3, each dealt six cards
      Given a deal by seat 3:
        | seat 0  | Ao 4o 6c Sb 2e 7e |
        | seat 1  | 3o 5c Rc 4e Cb 2b |
        | seat 2  | 5o Ac 6e Re 3b 7b |
        | seat 3  | 2o 7c Se Ce 4b 6b |
        | muestra | Rb                |
      Then the state field "players" is 4
      And the state field "hand_size.0" is 6
      And the state field "hand_size.3" is 6

  Rule: PRE-09 The mano, first to lead, is the player to the dealer's right: the seat after the dealer

    @PRE-09 @PLAY-03 @S000 @S002 @S003 @players=4
    Scenario: After a deal by seat 1 the mano is seat 2, who leads the first trick
      Given the deck, top card first, dealt by seat 1:
        | 6o 6b 3c Rc 6c Ac |
        | Ab 2e Co 2c Rb Ao |
        | Ce 5c Cb Cc 3e 2b |
        | Se 5e Sc 3b So 7e |
        | Sb ...            |
      Then the state field "dealer" is 1
      And the state field "mano" is 2
      And it is seat 2's turn

    @PRE-09 @S000 @S002 @S003
    Scenario: After a deal by seat 3 the mano is seat 0
      Given a deal by seat 3:
        | seat 0  | Ao 4o 6c Sb 2e 7e |
        | seat 1  | 3o 5c Rc 4e Cb 2b |
        | seat 2  | 5o Ac 6e Re 3b 7b |
        | seat 3  | 2o 7c Se Ce 4b 6b |
        | muestra | Rb                |
      Then the state field "mano" is 0
      And it is seat 0's turn
      And seat 0 may play any card

    @PRE-09 @PLAY-03 @S000 @S002 @S003
    Scenario: The dealer may not lead the first trick
      Given a deal by seat 3:
        | seat 0  | Ao 4o 6c Sb 2e 7e |
        | seat 1  | 3o 5c Rc 4e Cb 2b |
        | seat 2  | 5o Ac 6e Re 3b 7b |
        | seat 3  | 2o 7c Se Ce 4b 6b |
        | muestra | Rb                |
      When seat 3 tries to play 2o
      Then the action is refused as NOT_YOUR_TURN

  Rule: PRE-10 From the second hand on, the winner of the last trick, who took the diez de últimas, deals

    @PRE-10 @DEAL-11 @S000 @S004
    Scenario: Seat 3 takes the last trick and deals the next hand, so seat 0 is mano
      Given a deal by seat 0:
        | seat 0  | Ro Ae 7b 2e 5e 2b                            |
        | seat 1  | 3c 2c Sb 4c Sc Co                            |
        | seat 2  | Cb Re 2o 5c 5o Ab                            |
        | seat 3  | 3b Cc 7o 3o 3e Rb                            |
        | muestra | 4e                                           |
        | stock   | So Ac Se 7e 6c Rc 5b 6e 6o Ao 6b 4o 7c 4b Ce |
      When the rest of the hand is played, each seat playing its first legal card in deck order
      Then seat 3 wins the trick
      And side 1 wins the diez de últimas
      And the hand is over because of vueltas under rule SCORE-13
      When the next hand is dealt from the deck, top card first:
        | 6o 6b 3c Rc 6c Ac |
        | Ab 2e Co 2c Rb Ao |
        | Ce 5c Cb Cc 3e 2b |
        | Se 5e Sc 3b So 7e |
        | Sb ...            |
      Then seat 3 deals the next hand
      And the state field "mano" is 0
      And it is seat 0's turn
      And a hand_dealt event happens

    @PRE-10 @S000 @S004
    Scenario: The next hand given as its hands, muestra and stock goes to the seats it names
      Given a deal by seat 0:
        | seat 0  | Ro Ae 7b 2e 5e 2b                            |
        | seat 1  | 3c 2c Sb 4c Sc Co                            |
        | seat 2  | Cb Re 2o 5c 5o Ab                            |
        | seat 3  | 3b Cc 7o 3o 3e Rb                            |
        | muestra | 4e                                           |
        | stock   | So Ac Se 7e 6c Rc 5b 6e 6o Ao 6b 4o 7c 4b Ce |
      When the rest of the hand is played, each seat playing its first legal card in deck order
      And the next hand is dealt:
        | seat 0  | 6o 6b 3c Rc 6c Ac |
        | seat 1  | Ab 2e Co 2c Rb Ao |
        | seat 2  | Ce 5c Cb Cc 3e 2b |
        | seat 3  | Se 5e Sc 3b So 7e |
        | muestra | Sb                |
      Then seat 3 deals the next hand
      And seat 0 holds 6o 6b 3c Rc 6c Ac
      And seat 1 holds Ab 2e Co 2c Rb Ao
      And seat 2 holds Ce 5c Cb Cc 3e 2b
      And seat 3 holds Se 5e Sc 3b So 7e
      And the muestra is Sb
      And it is seat 0's turn

  Rule: PRE-22 After each card the turn passes to the next seat, and from seat 3 back to seat 0

    @PRE-22 @PLAY-02 @S000 @S002 @S003
    Scenario: After seat 2 leads, seat 3 plays and then seat 0, never seat 1
      Given a deal by seat 1:
        | seat 0  | Ao 4o 6c Sb 2e 7e |
        | seat 1  | 3o 5c Rc 4e Cb 2b |
        | seat 2  | 5o Ac 6e Re 3b 7b |
        | seat 3  | 2o 7c Se Ce 4b 6b |
        | muestra | Rb                |
      When seat 2 plays 5o
      Then it is seat 3's turn
      When seat 3 plays 2o
      Then it is seat 0's turn
      When seat 1 tries to play 3o
      Then the action is refused as NOT_YOUR_TURN

  Rule: MATCH-11 When a hand ends before its last trick, the winner of the last trick played deals next

    @MATCH-11 @interpretation @vueltas_end=automatic @thirty_malas_count=cards_plus_ultimas
    Scenario: A hand de vueltas won at the ninth trick is followed by a deal by the winner of that trick
      Given a hand in the arrastre, trumps in copas, seat 1 to lead:
        | seat 0 | Ao Ae |
        | seat 1 | 3o 3b |
        | seat 2 | 3e Rb |
        | seat 3 | Ab Sb |
      And seat 1 won the last trick
      And the tricks won so far are 3 for side 0 and 5 for side 1
      And the card points so far are 20 for side 0 and 30 for side 1
      And the hand is de vueltas, with 70 carried by side 0 and 60 by side 1
      When these tricks are played:
        | 3o Rb Sb Ao |
      Then seat 0 wins the trick
      And the hand is over because of vueltas_reached_101 under rule VUELTAS-07
      And side 0 wins the point
      When the next hand is dealt from the deck, top card first:
        | 6o 6b 3c Rc 6c Ac |
        | Ab 2e Co 2c Rb Ao |
        | Ce 5c Cb Cc 3e 2b |
        | Se 5e Sc 3b So 7e |
        | Sb ...            |
      Then seat 0 deals the next hand
      And it is seat 1's turn

    @MATCH-11 @interpretation @renuncio_handling=lose_point
    Scenario: A hand lost by a renuncio in the arrastre is followed by a deal by the winner of the last trick played
      Given a hand in the arrastre, trumps in copas, seat 1 to lead:
        | seat 0 | Ao 4b |
        | seat 1 | 5o 6b |
        | seat 2 | 3o 7b |
        | seat 3 | 6o 5b |
      And seat 1 won the last trick
      And the tricks won so far are 3 for side 0 and 5 for side 1
      And the card points so far are 40 for side 0 and 59 for side 1
      When seat 1 plays 5o
      And seat 2 plays 7b
      Then the hand is over because of renuncio under rule RENUNCIO-07
      And side 1 wins the point
      When the next hand is dealt from the deck, top card first:
        | 6o 6b 3c Rc 6c Ac |
        | Ab 2e Co 2c Rb Ao |
        | Ce 5c Cb Cc 3e 2b |
        | Se 5e Sc 3b So 7e |
        | Sb ...            |
      Then seat 1 deals the next hand
      And it is seat 2's turn

  Rule: DEAL-01 Each player is dealt six cards

    @DEAL-01 @S000 @S002 @S003 @S004
    Scenario: Each of the four players holds six cards after the deal, whichever way it is dealt
      Given the deck, top card first, dealt by seat 1:
        | 6o 6b 3c Rc 6c Ac |
        | Ab 2e Co 2c Rb Ao |
        | Ce 5c Cb Cc 3e 2b |
        | Se 5e Sc 3b So 7e |
        | Sb ...            |
      Then the state field "hand_size.0" is 6
      And the state field "hand_size.1" is 6
      And the state field "hand_size.2" is 6
      And the state field "hand_size.3" is 6

  Rule: DEAL-02 Ludoteka deals the six cards one at a time

    @DEAL-02 @S000 @deal=one_by_one
    Scenario: Dealt one at a time by seat 1, seat 2 gets the 1st, 5th, 9th, 13th, 17th and 21st cards
      Given the deck, top card first, dealt by seat 1:
        | 6o 6b 3c Rc 6c Ac |
        | Ab 2e Co 2c Rb Ao |
        | Ce 5c Cb Cc 3e 2b |
        | Se 5e Sc 3b So 7e |
        | Sb ...            |
      Then seat 2 holds 6o 6c Co Ce 3e Sc
      And seat 3 holds 6b Ac 2c 5c 2b 3b
      And seat 0 holds 3c Ab Rb Cb Se So
      And seat 1 holds Rc 2e Ao Cc 5e 7e
      And the muestra is Sb

  Rule: DEAL-03 Lascuarenta and the traditional rulebook deal two rounds of three cards

    @DEAL-03 @S002 @S003 @S004 @deal=three_three
    Scenario: Dealt three and three by seat 1, seat 2 gets the first three cards and the 13th to 15th
      Given the deck, top card first, dealt by seat 1:
        | 6o 6b 3c Rc 6c Ac |
        | Ab 2e Co 2c Rb Ao |
        | Ce 5c Cb Cc 3e 2b |
        | Se 5e Sc 3b So 7e |
        | Sb ...            |
      Then seat 2 holds 6o 6b 3c Ce 5c Cb
      And seat 3 holds Rc 6c Ac Cc 3e 2b
      And seat 0 holds Ab 2e Co Se 5e Sc
      And seat 1 holds 2c Rb Ao 3b So 7e
      And the muestra is Sb

  Rule: DEAL-04 The deal starts with the mano and goes round in playing order, the dealer served last

    @DEAL-04 @interpretation @deal=one_by_one
    Scenario: Dealt one at a time by seat 3, the mano gets the top card and the dealer the 24th
      Given the deck, top card first, dealt by seat 3:
        | 6o 6b 3c Rc 6c Ac |
        | Ab 2e Co 2c Rb Ao |
        | Ce 5c Cb Cc 3e 2b |
        | Se 5e Sc 3b So 7e |
        | Sb ...            |
      Then seat 0 holds 6o 6c Co Ce 3e Sc
      And seat 3 holds Rc 2e Ao Cc 5e 7e

    @DEAL-04 @interpretation @deal=three_three
    Scenario: Dealt three and three by seat 3, the mano gets the top three cards and the dealer the 22nd to 24th
      Given the deck, top card first, dealt by seat 3:
        | 6o 6b 3c Rc 6c Ac |
        | Ab 2e Co 2c Rb Ao |
        | Ce 5c Cb Cc 3e 2b |
        | Se 5e Sc 3b So 7e |
        | Sb ...            |
      Then seat 0 holds 6o 6b 3c Ce 5c Cb
      And seat 3 holds 2c Rb Ao 3b So 7e

  Rule: DEAL-05 The card after the deal is turned face up: the muestra, whose suit is trumps for the hand

    @DEAL-05 @S000 @S002 @S003 @S004
    Scenario: The card following the deal becomes the muestra and makes its suit trumps
      Given the deck, top card first, dealt by seat 2:
        | 6o 6b 3c Rc 6c Ac |
        | Ab 2e Co 2c Rb Ao |
        | Ce 5c Cb Cc 3e 2b |
        | Se 5e Sc 3b So 7e |
        | 4o ...            |
      Then the muestra is 4o
      And the trump suit is oros

  Rule: DEAL-06 With four players the muestra is the 25th card, after 24 dealt

    @DEAL-06 @S004 @players=4 @deck=40
    Scenario: With four players the 25th card is the muestra however the cards are dealt
      Given the deck, top card first, dealt by seat 1:
        | 6o 6b 3c Rc 6c Ac |
        | Ab 2e Co 2c Rb Ao |
        | Ce 5c Cb Cc 3e 2b |
        | Se 5e Sc 3b So 7e |
        | Sb ...            |
      Then the muestra is Sb
      And the trump suit is bastos
      And 16 cards are left to draw

  Rule: DEAL-07 With two players the muestra is the 13th card, after 12 dealt

    @DEAL-07 @S004 @players=2 @deck=40
    Scenario: With two players the 13th card is the muestra however the cards are dealt
      Given the deck, top card first, dealt by seat 1:
        | Cc So 4e 7c 3e 2e |
        | 7o Ac 5e 7e 4b 6c |
        | Sb ...            |
      Then the muestra is Sb
      And the trump suit is bastos
      And 28 cards are left to draw

  Rule: DEAL-08 The muestra lies under the stock and is the last card drawn, by the last player to draw

    @DEAL-08 @DEAL-11 @S000 @S002 @S003 @S004
    Scenario: The muestra stays put through one draw and goes to the last drawer at the final draw
      Given a hand in the free phase, muestra Rb, seat 0 to lead:
        | seat 0 | Ao 4o 6c Sb 2e 7e |
        | seat 1 | 3o 5c Rc 4e Cb 2b |
        | seat 2 | 5o Ac 6e Re 3b 7b |
        | seat 3 | 2o 7c Se Ce 4b 6b |
        | stock  | Sc 3c Ae 6o 7o So Co |
      When these tricks are played:
        | 6c 5c Ac 7c |
      And the cards are drawn
      Then the draw order is seats 2, 3, 0, 1
      And the muestra is Rb
      And 4 cards are left to draw
      When these tricks are played:
        | 5o 2o 4o 3o |
      And the cards are drawn
      Then seat 1 draws 7o
      And seat 2 draws So
      And seat 3 draws Co
      And seat 0 draws Rb
      And the muestra is gone
      And the trump suit is bastos

  Rule: DEAL-09 The muestra stays face up for everyone to see until it is drawn

    @DEAL-09 @S000 @S002 @S003 @S004
    Scenario: Every seat sees the muestra after the deal
      Given a deal by seat 3:
        | seat 0  | Ao 4o 6c Sb 2e 7e |
        | seat 1  | 3o 5c Rc 4e Cb 2b |
        | seat 2  | 5o Ac 6e Re 3b 7b |
        | seat 3  | 2o 7c Se Ce 4b 6b |
        | muestra | Rb                |
      Then seat 0 sees "muestra" as "Rb"
      And seat 1 sees "muestra" as "Rb"
      And seat 2 sees "muestra" as "Rb"
      And seat 3 sees "muestra" as "Rb"
      And seat 1 sees "trump" as "b"

  Rule: DEAL-10 With four players and 40 cards, 16 cards are left to draw: 15 face down and the muestra

    @DEAL-10 @DECK-01 @S000 @S004 @players=4 @deck=40
    Scenario: After the deal of the 40-card deck 16 cards are left to draw, the muestra included
      Given the deck, top card first, dealt by seat 1:
        | 6o 6b 3c Rc 6c Ac |
        | Ab 2e Co 2c Rb Ao |
        | Ce 5c Cb Cc 3e 2b |
        | Se 5e Sc 3b So 7e |
        | Sb ...            |
      Then 16 cards are left to draw
      And the phase is free

  Rule: DEAL-11 The trump suit stays fixed for the whole hand and is set anew for each hand

    @DEAL-11 @S000
    Scenario: The muestra of espadas makes espadas trumps until the hand ends, and the next deal turns up bastos
      Given a deal by seat 0:
        | seat 0  | Ro Ae 7b 2e 5e 2b                            |
        | seat 1  | 3c 2c Sb 4c Sc Co                            |
        | seat 2  | Cb Re 2o 5c 5o Ab                            |
        | seat 3  | 3b Cc 7o 3o 3e Rb                            |
        | muestra | 4e                                           |
        | stock   | So Ac Se 7e 6c Rc 5b 6e 6o Ao 6b 4o 7c 4b Ce |
      Then the trump suit is espadas
      When the rest of the hand is played, each seat playing its first legal card in deck order
      Then the trump suit is espadas
      And the muestra is gone
      And the hand is over because of vueltas under rule SCORE-13
      When the next hand is dealt from the deck, top card first:
        | 6o 6b 3c Rc 6c Ac |
        | Ab 2e Co 2c Rb Ao |
        | Ce 5c Cb Cc 3e 2b |
        | Se 5e Sc 3b So 7e |
        | Sb ...            |
      Then the muestra is Sb
      And the trump suit is bastos

  Rule: DEAL-13 How many cards are left to draw is public

    @DEAL-13 @S002 @S003 @deck=40
    Scenario: Every seat sees that 16 cards are left to draw after the deal
      Given a deal by seat 3:
        | seat 0  | Ao 4o 6c Sb 2e 7e |
        | seat 1  | 3o 5c Rc 4e Cb 2b |
        | seat 2  | 5o Ac 6e Re 3b 7b |
        | seat 3  | 2o 7c Se Ce 4b 6b |
        | muestra | Rb                |
      Then seat 0 sees "stock_count" as 16
      And seat 3 sees "stock_count" as 16
