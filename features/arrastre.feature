Feature: The arrastre
  Once the stock and the muestra have been drawn, the last six tricks are played under duties:
  follow the suit led (asistir), beat the trick with that suit if possible (montar), trump when
  void if a trump would win (fallar), beat a trump already played (pisar), and otherwise play
  anything. A partner who is winning the trick leaves only the duty to follow suit, except in
  the literal reading of the traditional rulebook (S004), which measures every duty against the
  card of the opponent who played just before.
  Unless a scenario says otherwise, trumps are bastos and oros are led. "May play exactly" lists
  the cards the engine offers; a refusal is checked with renuncio_handling=block, where an
  illegal card is refused (under lose_point it would stand and cost the point: see renuncio).

  Rule: ARR-01 A player holding the suit led must play a card of that suit

    @ARR-01 @S000 @S002 @S003 @S004
    Scenario: Holding oros, seat 1 may play only its oros when oros are led
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | 4o 2o Ac |
        | seat 2 | 6e 7e 3e |
        | seat 3 | 4e 5e 2e |
      And the trick so far is 5o
      Then seat 1 may play exactly 4o 2o

    @ARR-01 @S000 @S002 @S003 @S004 @renuncio_handling=block
    Scenario: Seat 1 is refused a copas card while it holds oros and oros are led
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | 4o 2o Ac |
        | seat 2 | 6e 7e 3e |
        | seat 3 | 4e 5e 2e |
      And the trick so far is 5o
      When seat 1 tries to play Ac
      Then the action is refused as MUST_FOLLOW_SUIT under rule ARR-01

    @ARR-01 @S000 @S002 @S003 @S004 @renuncio_handling=block
    Scenario: Seat 1 may not trump an oros lead while it still holds an oros card
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | 4o Ab Ac |
        | seat 2 | 6e 7e 3e |
        | seat 3 | 4e 5e 2e |
      And the trick so far is 5o
      When seat 1 tries to play Ab
      Then the action is refused as MUST_FOLLOW_SUIT under rule ARR-01
      And seat 1 may play exactly 4o

    @ARR-01 @S000 @S002 @S003 @S004 @renuncio_handling=block
    Scenario: Seat 1 unable to beat the 5 of oros is accepted with its lower oros
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | 4o 2o Ac |
        | seat 2 | 6e 7e 3e |
        | seat 3 | 4e 5e 2e |
      And the trick so far is 5o
      When seat 1 tries to play 2o
      Then the action is accepted

    @ARR-01 @S000 @S002 @S003
    Scenario: Seat 2 follows oros rather than overtrumping when it still holds an oros card
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | Ac 6e    |
        | seat 2 | 4o 3b 2c |
        | seat 3 | 4e 5e 2e |
      And the trick so far is 5o 2b
      Then seat 2 may play exactly 4o

    @ARR-01 @S000 @S002 @S003 @S004 @renuncio_handling=block
    Scenario: Seat 3 holding one espadas card is refused a trump of oros on seat 2's espadas lead
      Given a hand in the arrastre, trumps in oros, seat 2 to lead:
        | seat 0 | Ac Rc Sc |
        | seat 1 | 4b 5b 6b |
        | seat 2 | 7b Cb    |
        | seat 3 | 2e Ao 3o |
      And the trick so far is Ce
      When seat 3 tries to play Ao
      Then the action is refused as MUST_FOLLOW_SUIT under rule ARR-01
      And seat 3 may play exactly 2e

  Rule: ARR-02 A player following suit must beat the trick with the suit led if he can (montar)

    @ARR-02 @S000 @S002 @S003 @S004
    Scenario: Seat 1 must beat the 5 of oros with its 7 rather than play its 4
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | 7o 4o Ac |
        | seat 2 | 6e 7e 3e |
        | seat 3 | 4e 5e 2e |
      And the trick so far is 5o
      Then seat 1 may play exactly 7o

    @ARR-02 @S000 @S002 @S003 @renuncio_handling=block @overtake_reference=current_winning_card
    Scenario: Seat 1 is refused the 4 of oros while its 7 can beat the 5 led
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | 7o 4o Ac |
        | seat 2 | 6e 7e 3e |
        | seat 3 | 4e 5e 2e |
      And the trick so far is 5o
      When seat 1 tries to play 4o
      Then the action is refused as MUST_BEAT under rule ARR-02

    @ARR-02 @S000 @S002 @S003 @S004
    Scenario: Any higher oros will do, so seat 1 need not spend its As to beat the 5
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | Ao 7o 4o |
        | seat 2 | 6e 7e 3e |
        | seat 3 | 4e 5e 2e |
      And the trick so far is 5o
      Then seat 1 may play exactly Ao 7o

    @ARR-02 @S000 @S002 @S003 @S004
    Scenario: Beating the card led is not enough, seat 2 must beat the Rey that is winning
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | Ac 6e    |
        | seat 2 | Co 3o 2o |
        | seat 3 | 4e 5e 2e |
      And the trick so far is 4o Ro
      Then seat 2 may play exactly 3o

    @ARR-02 @S000 @S002 @S003 @S004
    Scenario: Seat 2 unable to beat the winning Rey may follow with any of its oros but not trump
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | Ac 6e    |
        | seat 2 | Co 2o Ab |
        | seat 3 | 4e 5e 2e |
      And the trick so far is 4o Ro
      Then seat 2 may play exactly Co 2o

    @ARR-02 @S000 @S002 @S003 @S004
    Scenario: Seat 3 must beat the opponent's Tres that has overtaken its partner's Rey
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | Ac 6e    |
        | seat 2 | 2c 3e    |
        | seat 3 | Ao 4o 5c |
      And the trick so far is 5o Ro 3o
      Then seat 3 may play exactly Ao

    @ARR-02 @S000 @S002 @S003 @S004
    Scenario: Seat 0 must beat seat 3's 5 of copas with its 6, a card worth no more points than its 4
      Given a hand in the arrastre, trumps in espadas, seat 3 to lead:
        | seat 0 | 6c 4c Ab |
        | seat 1 | 7o 2b 3b |
        | seat 2 | 4o 5b 6b |
        | seat 3 | Co So    |
      And the trick so far is 5c
      Then seat 0 may play exactly 6c

  Rule: ARR-13 Once the trick has been trumped, a player following suit need not play a higher card of the suit led

    @ARR-13 @S000 @S002 @S003 @S004
    Scenario: After an opponent has trumped, seat 2 may follow with any oros, high or low
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | Ac 6e    |
        | seat 2 | Ao 4o 5c |
        | seat 3 | 4e 5e 2e |
      And the trick so far is 5o 2b
      Then seat 2 may play exactly Ao 4o

    @ARR-13 @interpretation @partner_winning_exempts=no @overtake_reference=current_winning_card
    Scenario: Measured against the winning trump, seat 3 may follow with any oros after its partner has trumped
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | Ac 6e    |
        | seat 2 | 3e 7e    |
        | seat 3 | 7o 4o 3c |
      And the trick so far is 5o 2b 6o
      Then seat 3 may play exactly 7o 4o

  Rule: ARR-03 A player void in the suit led must trump if a trump of his would win the trick (fallar)

    @ARR-03 @S000 @S002 @S003
    Scenario: Void in oros, seat 1 must trump the 5 of oros
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | 4b Ac 6e |
        | seat 2 | 7e 3e 2c |
        | seat 3 | 4e 5e 2e |
      And the trick so far is 5o
      Then seat 1 may play exactly 4b

    @ARR-03 @S000 @S002 @S003 @renuncio_handling=block
    Scenario: Seat 1 void in oros is refused a copas card while it holds a trump
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | 4b Ac 6e |
        | seat 2 | 7e 3e 2c |
        | seat 3 | 4e 5e 2e |
      And the trick so far is 5o
      When seat 1 tries to play Ac
      Then the action is refused as MUST_TRUMP under rule ARR-03

    @ARR-03 @S000 @S002 @S003
    Scenario: Any trump wins against oros, so seat 1 may choose which trump to play
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | Ab 4b Ac |
        | seat 2 | 7e 3e 2c |
        | seat 3 | 4e 5e 2e |
      And the trick so far is 5o
      Then seat 1 may play exactly Ab 4b

    @ARR-03 @S000 @S002 @S003
    Scenario: Seat 2 void in oros must trump the opponent's As rather than discard
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | 4e 5e    |
        | seat 2 | 2b Cc 6e |
        | seat 3 | 7e 3e 2e |
      And the trick so far is 5o Ao
      Then seat 2 may play exactly 2b

    @ARR-03 @S000 @S002 @S003
    Scenario: With copas trumps, seat 0 void in espadas must trump seat 3's As of espadas with its 2 of copas
      Given a hand in the arrastre, trumps in copas, seat 3 to lead:
        | seat 0 | 2c Ro 5b |
        | seat 1 | 4e 6o 7b |
        | seat 2 | 3o 6e Sb |
        | seat 3 | Cc 5o    |
      And the trick so far is Ae
      Then seat 0 may play exactly 2c

    @ARR-03 @S000 @S002 @S003 @renuncio_handling=block
    Scenario: With copas trumps, seat 0 void in espadas is refused the Rey of oros while it holds a trump
      Given a hand in the arrastre, trumps in copas, seat 3 to lead:
        | seat 0 | 2c Ro 5b |
        | seat 1 | 4e 6o 7b |
        | seat 2 | 3o 6e Sb |
        | seat 3 | Cc 5o    |
      And the trick so far is Ae
      When seat 0 tries to play Ro
      Then the action is refused as MUST_TRUMP under rule ARR-03

  Rule: ARR-04 A player void in the suit led must beat a trump already played if he can (pisar)

    @ARR-04 @S000 @S002 @S003
    Scenario: Seat 2 must overtrump seat 1's 6 of bastos with its Rey
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | Ac 6e    |
        | seat 2 | 2b Rb Cc |
        | seat 3 | 4e 5e 2e |
      And the trick so far is 5o 6b
      Then seat 2 may play exactly Rb

    @ARR-04 @S000 @S002 @S003 @renuncio_handling=block
    Scenario: Seat 2 is refused a lower trump while its Rey can overtrump
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | Ac 6e    |
        | seat 2 | 2b Rb Cc |
        | seat 3 | 4e 5e 2e |
      And the trick so far is 5o 6b
      When seat 2 tries to play 2b
      Then the action is refused as MUST_OVERTRUMP under rule ARR-04

    @ARR-04 @S000 @S002 @S003 @renuncio_handling=block
    Scenario: Seat 2 is refused a copas discard while its Rey can overtrump
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | Ac 6e    |
        | seat 2 | 2b Rb Cc |
        | seat 3 | 4e 5e 2e |
      And the trick so far is 5o 6b
      When seat 2 tries to play Cc
      Then the action is refused as MUST_OVERTRUMP under rule ARR-04

    @ARR-04 @S000 @S002 @S003
    Scenario: Seat 3 must beat the higher of the two trumps already played
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | Ac 6e    |
        | seat 2 | 3e 7e    |
        | seat 3 | 6b Sb 2c |
      And the trick so far is 5o 4b 7b
      Then seat 3 may play exactly Sb

    @ARR-04 @S000 @S002 @S003
    Scenario: Seat 0 must overtrump seat 3's 2 of copas with its 4, though neither trump is worth a point
      Given a hand in the arrastre, trumps in copas, seat 2 to lead:
        | seat 0 | 4c Ao 3o |
        | seat 1 | 5o 6o 7o |
        | seat 2 | Se Ce    |
        | seat 3 | Ro So    |
      And the trick so far is Re 2c
      Then seat 0 may play exactly 4c

  Rule: ARR-05 A void player whose trumps cannot win may play any card: there is no duty to under-trump

    @ARR-05 @S000 @S002 @S003
    Scenario: Seat 2 holding only trumps lower than seat 1's may play any card
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | Ac 6e    |
        | seat 2 | 2b 6b Cc |
        | seat 3 | 4e 5e 2e |
      And the trick so far is 5o 3b
      Then seat 2 may play any card

    @ARR-05 @S000 @S002 @S003 @renuncio_handling=block
    Scenario: Seat 2 is not made to under-trump, its copas discard is accepted
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | Ac 6e    |
        | seat 2 | 2b 6b Cc |
        | seat 3 | 4e 5e 2e |
      And the trick so far is 5o 3b
      When seat 2 tries to play Cc
      Then the action is accepted

  Rule: ARR-06 While the partner is winning the trick, the only duty is to follow suit

    @ARR-06 @S000 @S002 @S003 @partner_winning_exempts=yes
    Scenario: With its partner's As of oros winning, seat 2 may follow with its Rey or its 4
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | Ac 6e    |
        | seat 2 | Ro 4o 2b |
        | seat 3 | 4e 5e 2e |
      And the trick so far is Ao Co
      Then seat 2 may play exactly Ro 4o

    @ARR-06 @ARR-01 @S000 @S002 @S003 @partner_winning_exempts=yes @renuncio_handling=block
    Scenario: A winning partner does not free seat 2 from following oros
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | Ac 6e    |
        | seat 2 | Ro 4o 2b |
        | seat 3 | 4e 5e 2e |
      And the trick so far is Ao Co
      When seat 2 tries to play 2b
      Then the action is refused as MUST_FOLLOW_SUIT under rule ARR-01

    @ARR-06 @S000 @S002 @S003 @partner_winning_exempts=yes
    Scenario: With its partner's trump winning, seat 3 need not beat seat 2's 6 of oros
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | Ac 6e    |
        | seat 2 | 3e 7e    |
        | seat 3 | 7o 4o 3c |
      And the trick so far is 5o 2b 6o
      Then seat 3 may play exactly 7o 4o

    @ARR-06 @S000 @S002 @S003 @partner_winning_exempts=yes
    Scenario: With its partner's 3 of oros winning, seat 2 holding the As need not overtake its partner
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | Ac 6e    |
        | seat 2 | Ao 4o 2b |
        | seat 3 | 4e 5e 2e |
      And the trick so far is 3o 5o
      Then seat 2 may play exactly Ao 4o

    @ARR-06 @S000 @S002 @S003 @partner_winning_exempts=yes
    Scenario: With its partner seat 3's Tres of espadas winning, seat 1 holding the As need not overtake it
      Given a hand in the arrastre, trumps in oros, seat 3 to lead:
        | seat 0 | 5c 6c    |
        | seat 1 | Ae 2e 7c |
        | seat 2 | Sc Cc Rc |
        | seat 3 | 4c Rb    |
      And the trick so far is 3e 4e
      Then seat 1 may play exactly Ae 2e

    @ARR-06 @ARR-10 @S004 @partner_winning_exempts=no @overtake_reference=previous_opponent_card
    Scenario: Under the literal S004 reading seat 2 must beat the opponent's 5 of oros even over its partner's 3
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | Ac 6e    |
        | seat 2 | Ao 4o 2b |
        | seat 3 | 4e 5e 2e |
      And the trick so far is 3o 5o
      Then seat 2 may play exactly Ao

  Rule: ARR-07 While the partner is winning the trick, a void player may play any card

    @ARR-07 @S000 @S002 @S003 @partner_winning_exempts=yes
    Scenario: With its partner's As winning, seat 2 void in oros need not trump
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | Ac 6e    |
        | seat 2 | 2b Cc 3e |
        | seat 3 | 4e 5e 2e |
      And the trick so far is Ao 4o
      Then seat 2 may play any card

    @ARR-07 @S000 @S002 @S003 @partner_winning_exempts=yes
    Scenario: Seat 3 void in oros need not overtrump its own partner's trump
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | Ac 6e    |
        | seat 2 | 3e 7e    |
        | seat 3 | Ab 4c 5c |
      And the trick so far is 5o 3b 6o
      Then seat 3 may play any card

    @ARR-07 @ARR-10 @interpretation @partner_winning_exempts=no @overtake_reference=previous_opponent_card
    Scenario: Under the literal S004 reading seat 2 void in oros must trump even under its partner's As
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | Ac 6e    |
        | seat 2 | 2b Cc 3e |
        | seat 3 | 4e 5e 2e |
      And the trick so far is Ao 4o
      Then seat 2 may play exactly 2b

  Rule: ARR-08 A player with no card of the suit led and no trump may play any card

    @ARR-08 @S000 @S002 @S003
    Scenario: Seat 1 with neither oros nor trumps may play any card
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | Ac 6e 2c |
        | seat 2 | 7e 3e 4c |
        | seat 3 | 4e 5e 2e |
      And the trick so far is 5o
      Then seat 1 may play any card

  Rule: ARR-09 When trumps are led, the others follow with trumps and beat the trick if they can

    @ARR-09 @S000 @S002 @S003 @S004
    Scenario: On a trump lead seat 1 must follow with a higher trump when it has one
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | 6b 2b Ao |
        | seat 2 | 7e 3e 2c |
        | seat 3 | 4e 5e 2e |
      And the trick so far is 4b
      Then seat 1 may play exactly 6b

    @ARR-09 @S000 @S002 @S003 @renuncio_handling=block @overtake_reference=current_winning_card
    Scenario: On a trump lead seat 1 is refused a lower trump while it holds a higher one
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | 6b 2b Ao |
        | seat 2 | 7e 3e 2c |
        | seat 3 | 4e 5e 2e |
      And the trick so far is 4b
      When seat 1 tries to play 2b
      Then the action is refused as MUST_BEAT under rule ARR-02

    @ARR-09 @S000 @S002 @S003 @S004 @renuncio_handling=block
    Scenario: On a trump lead seat 1 is refused an oros card while it holds trumps
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | 6b 2b Ao |
        | seat 2 | 7e 3e 2c |
        | seat 3 | 4e 5e 2e |
      And the trick so far is 4b
      When seat 1 tries to play Ao
      Then the action is refused as MUST_FOLLOW_SUIT under rule ARR-01

    @ARR-09 @S000 @S002 @S003 @S004
    Scenario: On a trump lead seat 1 holding only a lower trump must still play it
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | 2b Ao Ac |
        | seat 2 | 7e 3e 2c |
        | seat 3 | 4e 5e 2e |
      And the trick so far is 4b
      Then seat 1 may play exactly 2b

  Rule: ARR-10 Literal S004: a player must not play under the card of the opponent just before him when he holds a higher one

    @ARR-10 @ARR-06 @S004 @partner_winning_exempts=no @overtake_reference=previous_opponent_card
    Scenario: Under the literal S004 reading seat 2 must beat the opponent's Caballo even under its partner's As
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | Ac 6e    |
        | seat 2 | Ro 4o 2b |
        | seat 3 | 4e 5e 2e |
      And the trick so far is Ao Co
      Then seat 2 may play exactly Ro

    @ARR-10 @S004 @partner_winning_exempts=no @overtake_reference=previous_opponent_card @renuncio_handling=block
    Scenario: Under the literal S004 reading seat 2 is refused the 4 of oros under its partner's As
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | Ac 6e    |
        | seat 2 | Ro 4o 2b |
        | seat 3 | 4e 5e 2e |
      And the trick so far is Ao Co
      When seat 2 tries to play 4o
      Then the action is refused as MUST_BEAT under rule ARR-10

    @ARR-10 @ARR-13 @ARR-06 @S004 @partner_winning_exempts=no @overtake_reference=previous_opponent_card
    Scenario: Under the literal S004 reading seat 3 must beat seat 2's 6 of oros although its partner has trumped
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | Ac 6e    |
        | seat 2 | 3e 7e    |
        | seat 3 | 7o 4o 3c |
      And the trick so far is 5o 2b 6o
      Then seat 3 may play exactly 7o

    @ARR-10 @S004 @overtake_reference=previous_opponent_card
    Scenario: Measured against the previous opponent, seat 3 must beat seat 2's 5 although seat 0's As is winning
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | Ac 6e    |
        | seat 2 | 3e 7e    |
        | seat 3 | 7o 2o 4c |
      And the trick so far is Ao 4o 5o
      Then seat 3 may play exactly 7o

    @ARR-10 @ARR-02 @S000 @S002 @S003 @overtake_reference=current_winning_card
    Scenario: Measured against the winning As, seat 3 may follow with any oros it holds
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | Ac 6e    |
        | seat 2 | 3e 7e    |
        | seat 3 | 7o 2o 4c |
      And the trick so far is Ao 4o 5o
      Then seat 3 may play exactly 7o 2o

    @ARR-10 @interpretation @partner_winning_exempts=no @overtake_reference=previous_opponent_card
    Scenario: Under the literal S004 reading a discard by the opponent just before leaves seat 2 free among its oros
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | 5c 6e    |
        | seat 2 | 7o 2o 2b |
        | seat 3 | 4e 5e 2e |
      And the trick so far is 5o 4c
      Then seat 2 may play exactly 7o 2o

  Rule: ARR-11 The duties apply only once the stock and the muestra are gone

    @ARR-11 @ARR-01 @S000 @S002 @S003 @S004 @renuncio_handling=block
    Scenario: A card that is free in the last trick before the draw is refused once the arrastre begins
      Given a hand in the free phase, muestra Cb, seat 0 to lead:
        | seat 0 | 5o 3c 7e 2e 4b Ae |
        | seat 1 | 6o 2c Rc 6e 5b 3e |
        | seat 2 | 7o Co 4e 5e 6b 7c |
        | seat 3 | 4c 2o Ro 5c Ce Sb |
        | stock  | 6c Se Ac          |
      When seat 0 plays 5o
      And seat 1 tries to play 2c
      Then the action is accepted
      When seat 2 plays 7o
      And seat 3 plays 4c
      And the cards are drawn
      Then seat 1 draws Cb
      And the muestra is gone
      And the phase is arrastre
      When seat 2 plays Co
      And seat 3 tries to play 5c
      Then the action is refused as MUST_FOLLOW_SUIT under rule ARR-01
      And seat 3 may play exactly Ro

  Rule: ARR-12 Mano a mano there is no partner: the second player follows, beats and trumps as required

    @ARR-12 @S002 @S003 @S004 @players=2
    Scenario: Mano a mano, seat 1 must beat the 5 of oros with its 7
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | 7o 4o Ac |
      And the trick so far is 5o
      Then seat 1 may play exactly 7o

    @ARR-12 @S002 @S003 @players=2
    Scenario: Mano a mano, seat 1 void in oros must trump the 5
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c 7c    |
        | seat 1 | 2b Ac 6e |
      And the trick so far is 5o
      Then seat 1 may play exactly 2b

  Rule: ARR-14 The leader of an arrastre trick may lead any card, trumps included

    @ARR-14 @S000 @renuncio_handling=block
    Scenario: The leader of an arrastre trick may lead a trump while holding other suits
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 2b Ao Cc |
        | seat 1 | 6c 7c Ac |
        | seat 2 | 7e 3e 2c |
        | seat 3 | 4e 5e 2e |
      Then seat 0 may play any card
      When seat 0 tries to play 2b
      Then the action is accepted
