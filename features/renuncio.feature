Feature: Renuncio
  A renuncio is a card the rules forbid: not following suit, not beating or not trumping when
  bound to in the arrastre, and also playing out of turn there or singing without a won trick.
  The sources handle it in two ways. Played online (S002/S003) the illegal move is simply
  refused (renuncio_handling=block). At a table (S000, S004) the card stands and the side that
  made it loses the point (renuncio_handling=lose_point); the project calls the renuncio at once,
  so the hand stops on that card. Out-of-turn cards and cantes without a won trick are refused
  unless the table counts them as renuncios too (renuncio_faults: S004 counts a card out of turn
  in the arrastre, S002/S003 also a cante without a won trick), and nothing played in the free
  phase is ever a renuncio.
  Trumps are bastos and oros are led unless a scenario says otherwise.

  Rule: RENUNCIO-02 Not following the suit led in the arrastre when able is a renuncio

    @RENUNCIO-02 @RENUNCIO-08 @S002 @S003 @renuncio_handling=block
    Scenario: Under block, seat 1's copas on an oros lead is refused and seat 1 is still to play
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c    |
        | seat 1 | 4o Ac |
        | seat 2 | 6e 7e |
        | seat 3 | 4e 5e |
      And the trick so far is 5o
      When seat 1 tries to play Ac
      Then the action is refused as MUST_FOLLOW_SUIT under rule ARR-01
      And seat 1 holds 4o Ac
      And it is seat 1's turn
      And the hand is not over

    @RENUNCIO-02 @RENUNCIO-07 @S000 @S004 @interpretation @renuncio_handling=lose_point
    Scenario: Under lose_point, seat 1 failing to follow oros gives side 0 the point though side 1 has more card points
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c    |
        | seat 1 | 4o Ac |
        | seat 2 | 6e 7e |
        | seat 3 | 4e 5e |
      And the trick so far is 5o
      And the card points so far are 20 for side 0 and 89 for side 1
      And the tricks won so far are 3 for side 0 and 5 for side 1
      When seat 1 plays Ac
      Then a renuncio event happens
      And the renuncio event has "seat" 1
      And the renuncio event has "card" "Ac"
      And the hand is over because of renuncio under rule RENUNCIO-07
      And side 0 wins the point
      And the phase is hand_over
      And the state field "hand_rule" is "RENUNCIO-07"

  Rule: RENUNCIO-03 Not beating the trick in the arrastre when bound to and able is a renuncio

    @RENUNCIO-03 @RENUNCIO-08 @S002 @S003 @renuncio_handling=block @overtake_reference=current_winning_card
    Scenario: Under block, seat 1 is refused its 4 of oros while its 7 beats the 5 led
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c    |
        | seat 1 | 7o 4o |
        | seat 2 | 6e 7e |
        | seat 3 | 4e 5e |
      And the trick so far is 5o
      When seat 1 tries to play 4o
      Then the action is refused as MUST_BEAT under rule ARR-02
      And seat 1 holds 7o 4o

    @RENUNCIO-03 @RENUNCIO-07 @S000 @S004 @interpretation @renuncio_handling=lose_point
    Scenario: Under lose_point, seat 1 playing its 4 of oros when its 7 beats the 5 gives side 0 the point
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c    |
        | seat 1 | 7o 4o |
        | seat 2 | 6e 7e |
        | seat 3 | 4e 5e |
      And the trick so far is 5o
      When seat 1 plays 4o
      Then a renuncio event happens
      And the hand is over because of renuncio under rule RENUNCIO-07
      And side 0 wins the point

    @RENUNCIO-03 @RENUNCIO-07 @S004 @interpretation @renuncio_handling=lose_point @partner_winning_exempts=no @overtake_reference=previous_opponent_card
    Scenario: Under the literal S004 reading, the 4 of oros under the partner's As is a renuncio that gives side 1 the point
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c    |
        | seat 1 | 6e    |
        | seat 2 | Ro 4o |
        | seat 3 | 4e 5e |
      And the trick so far is Ao Co
      When seat 2 plays 4o
      Then a renuncio event happens
      And the hand is over because of renuncio under rule RENUNCIO-07
      And side 1 wins the point

    @RENUNCIO-03 @S000 @renuncio_handling=lose_point @partner_winning_exempts=yes
    Scenario: With the partner exemption, the 4 of oros under the partner's As is no renuncio and play goes on
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c    |
        | seat 1 | 6e    |
        | seat 2 | Ro 4o |
        | seat 3 | 4e 5e |
      And the trick so far is Ao Co
      When seat 2 plays 4o
      Then a renuncio event does not happen
      And the hand is not over
      And it is seat 3's turn

  Rule: RENUNCIO-04 Playing out of turn in the arrastre is a renuncio

    @RENUNCIO-04 @S002 @S003 @renuncio_handling=block
    Scenario: Under block, a card played out of turn in the arrastre is refused under RENUNCIO-04
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c    |
        | seat 1 | 7o 4o |
        | seat 2 | 6o 7e |
        | seat 3 | 4e 5e |
      And the trick so far is 5o
      When seat 2 tries to play 6o
      Then the action is refused as NOT_YOUR_TURN under rule RENUNCIO-04
      And it is seat 1's turn

    @RENUNCIO-04 @interpretation @renuncio_handling=lose_point @renuncio_faults=play_duties
    Scenario: When only the duties of play are renuncios, a card played out of turn in the arrastre is refused and costs nothing
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c    |
        | seat 1 | 7o 4o |
        | seat 2 | 6o 7e |
        | seat 3 | 4e 5e |
      And the trick so far is 5o
      When seat 2 tries to play 6o
      Then the action is refused as NOT_YOUR_TURN under rule RENUNCIO-04
      And a renuncio event does not happen
      And the hand is not over
      And seat 2 holds 6o 7e
      And it is seat 1's turn

    # B-34: S004 lists a card played before one's turn in the arrastre among the faults that lose the partida.
    @RENUNCIO-04 @RENUNCIO-07 @S004 @renuncio_handling=lose_point @renuncio_faults=out_of_turn
    Scenario: Under S004's list of faults, a card played out of turn in the arrastre stands and the opponents win the point
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c    |
        | seat 1 | 7o 4o |
        | seat 2 | 6o 7e |
        | seat 3 | 4e 5e |
      And the trick so far is 5o
      When seat 2 plays 6o
      Then a renuncio event happens
      And the hand is over because of renuncio under rule RENUNCIO-07
      And side 1 wins the point
      And the state field "hand_rule" is "RENUNCIO-07"

  Rule: RENUNCIO-05 Singing without a trick won by one's side is a renuncio

    @RENUNCIO-05 @S002 @S003 @renuncio_handling=block
    Scenario: Under block, seat 0 is refused a cante of copas after the opponents won the last trick
      Given a hand in the arrastre, trumps in bastos, seat 1 to lead:
        | seat 0 | Rc Sc |
        | seat 1 | 4o 5o |
        | seat 2 | 6e 7e |
        | seat 3 | 4e 5e |
      And seat 1 won the last trick
      When seat 0 tries to sing copas
      Then the action is refused as CANTE_NO_WON_TRICK under rule CANTE-05
      And seat 0 may not sing copas

    # B-34: S000 and S004 make the won trick a condition of singing but do not list a premature cante as a fault.
    @RENUNCIO-05 @interpretation @renuncio_handling=lose_point @renuncio_faults=out_of_turn
    Scenario: Where a premature cante is not among the faults, it is refused under lose_point and the hand goes on
      Given a hand in the arrastre, trumps in bastos, seat 1 to lead:
        | seat 0 | Rc Sc |
        | seat 1 | 4o 5o |
        | seat 2 | 6e 7e |
        | seat 3 | 4e 5e |
      And seat 1 won the last trick
      When seat 0 tries to sing copas
      Then the action is refused as CANTE_NO_WON_TRICK under rule CANTE-05
      And a renuncio event does not happen
      And the hand is not over
      And it is seat 1's turn

    # B-34: S002/S003 call singing without a won trick in the arrastre a renuncio, which at a real table may cost the partida.
    @RENUNCIO-05 @RENUNCIO-07 @S002 @S003 @renuncio_handling=lose_point @renuncio_faults=out_of_turn_and_cante
    Scenario: At a table that counts a premature cante as a renuncio, the cante costs the singer's side the point
      Given a hand in the arrastre, trumps in bastos, seat 1 to lead:
        | seat 0 | Rc Sc |
        | seat 1 | 4o 5o |
        | seat 2 | 6e 7e |
        | seat 3 | 4e 5e |
      And seat 1 won the last trick
      When seat 0 sings copas
      Then a renuncio event happens
      And the renuncio event has "suit" "c"
      And the hand is over because of renuncio under rule RENUNCIO-07
      And side 1 wins the point

  Rule: RENUNCIO-06 Not trumping or not overtrumping in the arrastre when bound to is a renuncio

    @RENUNCIO-06 @RENUNCIO-08 @S002 @S003 @renuncio_handling=block
    Scenario: Under block, seat 1 void in oros is refused a copas discard while it holds a trump
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c    |
        | seat 1 | 4b Ac |
        | seat 2 | 6e 7e |
        | seat 3 | 4e 5e |
      And the trick so far is 5o
      When seat 1 tries to play Ac
      Then the action is refused as MUST_TRUMP under rule ARR-03
      And seat 1 holds 4b Ac

    @RENUNCIO-06 @RENUNCIO-07 @S000 @interpretation @renuncio_handling=lose_point
    Scenario: Under lose_point, seat 1 discarding instead of trumping gives side 0 the point
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c    |
        | seat 1 | 4b Ac |
        | seat 2 | 6e 7e |
        | seat 3 | 4e 5e |
      And the trick so far is 5o
      When seat 1 plays Ac
      Then a renuncio event happens
      And the hand is over because of renuncio under rule RENUNCIO-07
      And side 0 wins the point

    @RENUNCIO-06 @RENUNCIO-08 @S002 @S003 @renuncio_handling=block
    Scenario: Under block, seat 2 is refused its 2 of bastos while its Rey overtrumps seat 1
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c    |
        | seat 1 | 6e    |
        | seat 2 | 2b Rb |
        | seat 3 | 4e 5e |
      And the trick so far is 5o 6b
      When seat 2 tries to play 2b
      Then the action is refused as MUST_OVERTRUMP under rule ARR-04

    @RENUNCIO-06 @RENUNCIO-07 @S000 @interpretation @renuncio_handling=lose_point
    Scenario: Under lose_point, seat 2 under-trumping while its Rey overtrumps gives side 1 the point
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c    |
        | seat 1 | 6e    |
        | seat 2 | 2b Rb |
        | seat 3 | 4e 5e |
      And the trick so far is 5o 6b
      When seat 2 plays 2b
      Then a renuncio event happens
      And the hand is over because of renuncio under rule RENUNCIO-07
      And side 1 wins the point

  Rule: RENUNCIO-07 At the table a renuncio costs the offending side the point

    @RENUNCIO-07 @interpretation @renuncio_handling=lose_point
    Scenario: A renuncio in a hand de vueltas costs the point to the side carrying more points
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | Ac 3c Rc Sc Cc    |
        | seat 1 | Ae 3e Re Se Ce    |
        | seat 2 | 2b Rb 3b Ab Sb Cb |
        | seat 3 | Ao 3o Ro So Co 4b |
      And the trick so far is 5o 6b
      And the hand is de vueltas, with 80 carried by side 0 and 50 by side 1
      When seat 2 plays 2b
      Then the hand is over because of renuncio under rule RENUNCIO-07
      And side 1 wins the point

    @RENUNCIO-07 @S000 @S004 @interpretation @renuncio_handling=lose_point @points_per_coto=3
    Scenario: A renuncio that gives side 0 its third point wins it the coto
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c    |
        | seat 1 | 4o Ac |
        | seat 2 | 6e 7e |
        | seat 3 | 4e 5e |
      And the trick so far is 5o
      And the match stands at 2 points to 0 and 0 cotos to 0
      When seat 1 plays Ac
      Then side 0 wins the point
      And side 0 wins the coto
      And the hand is over because of renuncio under rule RENUNCIO-07

    @RENUNCIO-07 @RENUNCIO-02 @S004 @interpretation @renuncio_handling=lose_point @players=2
    Scenario: Mano a mano, a renuncio by seat 1 gives the point to seat 0
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | 6c    |
        | seat 1 | 4o Ac |
      And the trick so far is 5o
      When seat 1 plays Ac
      Then a renuncio event happens
      And the hand is over because of renuncio under rule RENUNCIO-07
      And side 0 wins the point

  Rule: RENUNCIO-10 Playing out of turn in the free phase is no renuncio

    @RENUNCIO-10 @S002 @S003 @S004 @interpretation @renuncio_handling=lose_point
    Scenario: In the free phase a card played out of turn is refused under PLAY-02 and is no renuncio
      Given a hand in the free phase, muestra Cb, seat 0 to lead:
        | seat 0 | 3c 7e 2e 4b Ae    |
        | seat 1 | 6o 2c Rc 6e 5b 3e |
        | seat 2 | 7o Co 4e 5e 6b 7c |
        | seat 3 | 4c 2o Ro 5c Ce Sb |
        | stock  | 6c Se Ac          |
      And the trick so far is 5o
      When seat 2 tries to play 7o
      Then the action is refused as NOT_YOUR_TURN under rule PLAY-02
      And a renuncio event does not happen
      And the hand is not over
      And it is seat 1's turn

  Rule: RENUNCIO-11 Nothing played in the free phase is a renuncio

    @RENUNCIO-11 @S000 @S002 @S003 @renuncio_handling=lose_point
    Scenario: Under lose_point, not following oros in the free phase is no renuncio
      Given a hand in the free phase, muestra Cb, seat 0 to lead:
        | seat 0 | 3c 7e 2e 4b Ae    |
        | seat 1 | 6o 2c Rc 6e 5b 3e |
        | seat 2 | 7o Co 4e 5e 6b 7c |
        | seat 3 | 4c 2o Ro 5c Ce Sb |
        | stock  | 6c Se Ac          |
      And the trick so far is 5o
      When seat 1 plays 2c
      Then a renuncio event does not happen
      And the hand is not over
      And it is seat 2's turn

    @RENUNCIO-11 @interpretation @renuncio_handling=lose_point @partner_winning_exempts=no @overtake_reference=previous_opponent_card
    Scenario: Under the literal S004 reading too, playing under the 5 of oros in the free phase is no renuncio
      Given a hand in the free phase, muestra Cb, seat 0 to lead:
        | seat 0 | 3c 7e 2e 4b Ae    |
        | seat 1 | 6o 4o Rc 6e 5b 3e |
        | seat 2 | 7o Co 4e 5e 6b 7c |
        | seat 3 | 4c 2o Ro 5c Ce Sb |
        | stock  | 6c Se Ac          |
      And the trick so far is 5o
      When seat 1 plays 4o
      Then a renuncio event does not happen
      And the hand is not over
      And it is seat 2's turn
