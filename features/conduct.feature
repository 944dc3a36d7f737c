Feature: Information and table conduct
  What each player is allowed to know. A player sees his own hand and no other, not even his
  partner's; tricks already gathered stay face down, apart from the latest one; the running
  count of points is kept in the players' heads and shown only when the hand is over; and the
  suit of a twenty sung in the arrastre is kept from the opponents while the singer's partner
  may learn it. These rules are checked through each seat's observation of the game, where a
  hidden field reads null. Table manners (no signs, care when cutting) cannot be checked.

  Rule: ETIQ-09 Each player sees his own hand only, not even his partner's

    @ETIQ-09 @S002 @S003 @S004
    Scenario: Seat 0 sees its own cards but not those of its partner or of the opponents
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 5o 2c |
        | seat 1 | Ro 7c |
        | seat 2 | 4o 3c |
        | seat 3 | 3o 4c |
      Then seat 0 sees "hand.0" as ["5o", "2c"]
      And seat 0 sees "hand.2" as null
      And seat 0 sees "hand.1" as null
      And seat 3 sees "hand.0" as null

  Rule: ETIQ-01 Tricks already gathered may not be looked at, one's own side's included

    @ETIQ-01 @S004
    Scenario: No seat may look at the cards its side or the other side has gathered
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 5o 6c |
        | seat 1 | Ro 7c |
        | seat 2 | 4o 2c |
        | seat 3 | 3o 4c |
      When these tricks are played:
        | 5o Ro 4o 3o |
      Then the state field "last_trick_won.1" is ["5o", "Ro", "4o", "3o"]
      And seat 1 sees "won_cards.1" as null
      And seat 3 sees "won_cards.1" as null
      And seat 0 sees "won_cards.1" as null
      And seat 2 sees "won_cards.0" as null

  Rule: ETIQ-02 The latest trick may still be examined

    @ETIQ-02 @S004
    Scenario: Every seat may look at the trick just gathered
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 5o 6c |
        | seat 1 | Ro 7c |
        | seat 2 | 4o 2c |
        | seat 3 | 3o 4c |
      When these tricks are played:
        | 5o Ro 4o 3o |
      Then seat 0 sees "last_trick" as ["5o", "Ro", "4o", "3o"]
      And seat 3 sees "last_trick" as ["5o", "Ro", "4o", "3o"]
      And seat 2 sees "last_trick_winner" as 3

    @ETIQ-02 @S004
    Scenario: Each pair's latest trick stays open to view after the other pair wins a trick
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 5o 7c |
        | seat 1 | Ro 6c |
        | seat 2 | 4o 2c |
        | seat 3 | 3o 4c |
      When these tricks are played:
        | 5o Ro 4o 3o |
        | 4c 7c 6c 2c |
      Then seat 0 wins the trick
      And seat 2 sees "last_trick_won.1" as ["5o", "Ro", "4o", "3o"]
      And seat 1 sees "last_trick_won.0" as ["4c", "7c", "6c", "2c"]
      And the hand is over because of vueltas under rule SCORE-13

  Rule: ETIQ-06 The suit of a twenty sung in the arrastre is kept from the opponents, not from the partner

    @ETIQ-06 @S000 @S004
    Scenario: The opponents are not told the suit of a twenty sung in the arrastre, the singer's partner is
      Given a hand in the arrastre, trumps in bastos, seat 1 to lead:
        | seat 0 | 4o 5o |
        | seat 1 | Rc Sc |
        | seat 2 | 6o 7o |
        | seat 3 | 2o Co |
      And seat 1 won the last trick
      When seat 1 sings copas
      Then seat 0 sees "cantes" as [{"seat": 1, "side": 1, "suit": null, "value": 20, "arrastre": true}]
      And seat 2 sees "cantes" as [{"seat": 1, "side": 1, "suit": null, "value": 20, "arrastre": true}]
      And seat 3 sees "cantes" as [{"seat": 1, "side": 1, "suit": "c", "value": 20, "arrastre": true}]
      And seat 1 sees "cantes" as [{"seat": 1, "side": 1, "suit": "c", "value": 20, "arrastre": true}]
      And seat 0 sees "sung_suits" as []
      And seat 3 sees "sung_suits" as ["c"]

    @ETIQ-06 @S000 @S004
    Scenario: Every seat is told the suit of a twenty sung in the free phase
      Given a hand in the free phase, muestra Cb, seat 1 to lead:
        | seat 0 | 5o 3c 7e 2e 4b Ae |
        | seat 1 | 6o Rc Sc 6e 5b 3e |
        | seat 2 | 7o Co 4e 5e 6b 7c |
        | seat 3 | 4c 2o Ro 5c Ce Sb |
        | stock  | 6c Se Ac          |
      And seat 1 won the last trick
      When seat 1 sings copas
      Then seat 0 sees "cantes" as [{"seat": 1, "side": 1, "suit": "c", "value": 20, "arrastre": false}]
      And seat 2 sees "sung_suits" as ["c"]

    @ETIQ-06 @S000 @S004
    Scenario: Every seat is told that a forty sung in the arrastre is in trumps
      Given a hand in the arrastre, trumps in bastos, seat 1 to lead:
        | seat 0 | 4o 5o |
        | seat 1 | Rb Sb |
        | seat 2 | 6o 7o |
        | seat 3 | 2o Co |
      And seat 1 won the last trick
      When seat 1 sings bastos
      Then seat 0 sees "cantes" as [{"seat": 1, "side": 1, "suit": "b", "value": 40, "arrastre": true}]
      And seat 2 sees "sung_suits" as ["b"]

  Rule: ETIQ-07 In a hand de vueltas each pair keeps its count to itself

    @ETIQ-07 @S004
    Scenario: In a hand de vueltas no seat is shown either side's running total
      Given a hand in the free phase, muestra 4b, seat 0 to lead:
        | seat 0 | 5o 6c Ao 2e 3e 4e                             |
        | seat 1 | Ro 7c 2o 5e 6e 7e                             |
        | seat 2 | 4o 2c Se Ce Re Ae                             |
        | seat 3 | 3o 4c 2b 3b 5b 6b                             |
        | stock  | 6o 7o So Co Ac 3c 5c Sc Cc Rc Ab 7b Sb Cb Rb |
      And the hand is de vueltas, with 70 carried by side 0 and 60 by side 1
      When seat 0 plays Ao
      And seat 1 plays 2o
      And seat 2 plays 4o
      And seat 3 plays 3o
      Then the state field "total.0" is 91
      And seat 0 sees "total.0" as null
      And seat 2 sees "total.0" as null
      And seat 1 sees "total.1" as null
      And seat 1 sees "total.0" as null

  Rule: ETIQ-08 The running count is shown to nobody during the hand and to everybody once it is over

    @ETIQ-08 @S000 @S004 @interpretation
    Scenario: Card points stay hidden from every seat until the last trick, then everyone sees them
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | Ao |
        | seat 1 | 4o |
        | seat 2 | 3o |
        | seat 3 | 2o |
      And the card points so far are 60 for side 0 and 39 for side 1
      And the tricks won so far are 5 for side 0 and 4 for side 1
      Then seat 0 sees "card_points.0" as null
      And seat 2 sees "score.0" as null
      And seat 1 sees "card_points.1" as null
      When these tricks are played:
        | Ao 4o 3o 2o |
      Then seat 1 sees "card_points.0" as 81
      And seat 1 sees "score.0" as 91
      And seat 0 sees "card_points.1" as 39
      And the hand is over because of vueltas under rule SCORE-13
