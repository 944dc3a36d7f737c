Feature: Cantes
  A player holding the Rey and the Sota of one suit may declare them ("cantar"): 20 points
  in a plain suit, 40 in the trump suit. A cante is allowed only while his side has just
  taken a trick: the window opens when the trick is won and shuts when the next card is led.
  The sources disagree on how many cantes may follow one trick, on whether the forty must
  come first and on whether four Reyes or four Sotas (tute) win the point. Each reading has
  its own scenario. A twenty sung in the arrastre keeps its suit hidden from the opponents.

  Unless a scenario says otherwise, trumps are oros and the muestra is the 4 of oros, which
  the seven cannot take, so no exchange gets in the way.

  @CANTE-01
  Rule: CANTE-01 A player holding the Rey and the Sota of one suit may sing them

    @S000 @S002 @S003 @S004
    Scenario: After his side takes a trick the holder of the Rey and Sota of copas is offered the cante
      Given a hand in the free phase, muestra 4o, seat 0 to lead:
        | seat 0 | Rc Sc 2e 5b 6b       |
        | seat 1 | Rb Sb 4c 5c 6c       |
        | seat 2 | Ro So 7c 2b 4b       |
        | seat 3 | Ce 4e 5e 6e 7e       |
        | stock  | 2c 3c Ac Cc 7b Cb 3e |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      Then seat 0 may sing copas
      And seat 2 may sing oros
      And seat 0 may not sing espadas
      And seat 2 may not sing copas

    @S000 @S002 @S003 @S004
    Scenario: A Rey without its Sota, or a Sota without its Rey, is no pair to sing
      Given a hand in the free phase, muestra 4o, seat 0 to lead:
        | seat 0 | Rc 2c Se 5b 6b       |
        | seat 1 | Rb Sb 4c 5c 6c       |
        | seat 2 | Ro So 7c 2b 4b       |
        | seat 3 | Ce 4e 5e 6e 7e       |
        | stock  | Sc 3c Ac Cc 7b Cb 3e |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      Then seat 0 may not sing copas
      And seat 0 may not sing espadas
      And seat 2 may sing oros
      When seat 0 tries to sing copas
      Then the action is refused as CANTE_NO_PAIR under rule CANTE-19

  @CANTE-02
  Rule: CANTE-02 A cante in a suit other than trumps is worth 20

    @S000 @S002 @S003 @S004
    Scenario: A twenty in copas gives the singer's side 20 cante points
      Given a hand in the free phase, muestra 4o, seat 0 to lead:
        | seat 0 | Rc Sc 2e 5b 6b       |
        | seat 1 | Rb Sb 4c 5c 6c       |
        | seat 2 | Ro So 7c 2b 4b       |
        | seat 3 | Ce 4e 5e 6e 7e       |
        | stock  | 2c 3c Ac Cc 7b Cb 3e |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When seat 0 sings copas
      Then a cante event happens
      And side 0 has 20 cante points
      And side 1 has 0 cante points

    @S000 @S002 @S003 @S004
    Scenario: With copas trumps the pair of oros is a twenty, worth 20 cante points
      Given a hand in the free phase, muestra 4c, seat 2 to lead:
        | seat 0 | Rc Sc 2e 5b 6b       |
        | seat 1 | Rb Sb 4o 5c 6c       |
        | seat 2 | Ro So 7c 2b 4b       |
        | seat 3 | Ce 4e 5e 6e 7e       |
        | stock  | 2c 3c Ac Cc 7b Cb 3e |
      And seat 2 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When seat 2 sings oros
      Then side 0 has 20 cante points
      And side 1 has 0 cante points

  @CANTE-03
  Rule: CANTE-03 A cante in the trump suit is worth 40

    @S000 @S002 @S003 @S004
    Scenario: The forty in oros, the trump suit, gives the singer's side 40 cante points
      Given a hand in the free phase, muestra 4o, seat 2 to lead:
        | seat 0 | Rc Sc 2e 5b 6b       |
        | seat 1 | Rb Sb 4c 5c 6c       |
        | seat 2 | Ro So 7c 2b 4b       |
        | seat 3 | Ce 4e 5e 6e 7e       |
        | stock  | 2c 3c Ac Cc 7b Cb 3e |
      And seat 2 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When seat 2 sings oros
      Then side 0 has 40 cante points
      And the state field "cantes" is [{"seat": 2, "side": 0, "suit": "o", "value": 40, "arrastre": false}]

    @S000 @S002 @S003 @S004
    Scenario: With copas trumps the pair of copas is the forty, worth 40 cante points
      Given a hand in the free phase, muestra 4c, seat 0 to lead:
        | seat 0 | Rc Sc 2e 5b 6b       |
        | seat 1 | Rb Sb 4o 5c 6c       |
        | seat 2 | Ro So 7c 2b 4b       |
        | seat 3 | Ce 4e 5e 6e 7e       |
        | stock  | 2c 3c Ac Cc 7b Cb 3e |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When seat 0 sings copas
      Then side 0 has 40 cante points
      And the state field "cantes" is [{"seat": 0, "side": 0, "suit": "c", "value": 40, "arrastre": false}]

  @CANTE-04
  Rule: CANTE-04 Cante points count for the singer's side in the hand

    @S000 @S002 @S003 @S004
    Scenario: A twenty is added to the card points of the singer's side for the hand
      Given a hand in the free phase, muestra 4o, seat 0 to lead:
        | seat 0 | Rc Sc 2e 5b 6b       |
        | seat 1 | Rb Sb 4c 5c 6c       |
        | seat 2 | Ro So 7c 2b 4b       |
        | seat 3 | Ce 4e 5e 6e 7e       |
        | stock  | 2c 3c Ac Cc 7b Cb 3e |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      And the card points so far are 40 for side 0 and 22 for side 1
      When seat 0 sings copas
      Then side 0 has 40 card points
      And side 0 has 20 cante points
      And side 0 has 60 points in the hand
      And side 1 has 22 points in the hand

  @CANTE-05
  Rule: CANTE-05 Only the side that took the last trick may sing, through either partner

    @S000 @S002 @S003 @S004
    Scenario: The partner of the player who took the trick may sing the forty
      Given a hand in the free phase, muestra 4o, seat 0 to lead:
        | seat 0 | Rc Sc 2e 5b 6b       |
        | seat 1 | Rb Sb 4c 5c 6c       |
        | seat 2 | Ro So 7c 2b 4b       |
        | seat 3 | Ce 4e 5e 6e 7e       |
        | stock  | 2c 3c Ac Cc 7b Cb 3e |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When seat 2 sings oros
      Then side 0 has 40 cante points

    @S000 @S002 @S003 @S004
    Scenario: A player whose side lost the last trick may not sing his pair
      Given a hand in the free phase, muestra 4o, seat 0 to lead:
        | seat 0 | Rc Sc 2e 5b 6b       |
        | seat 1 | Rb Sb 4c 5c 6c       |
        | seat 2 | Ro So 7c 2b 4b       |
        | seat 3 | Ce 4e 5e 6e 7e       |
        | stock  | 2c 3c Ac Cc 7b Cb 3e |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      Then seat 1 may not sing bastos
      When seat 1 tries to sing bastos
      Then the action is refused as CANTE_NO_WON_TRICK under rule CANTE-05
      And side 1 has 0 cante points

    @S000 @S002 @S003 @S004
    Scenario: A side that took the trick before last may not sing once the opponents take the last one
      Given a hand in the free phase, muestra 4o, seat 0 to lead:
        | seat 0 | Rc Sc 2e 5b 6b       |
        | seat 1 | Rb Sb 4c 5c 6c       |
        | seat 2 | Ro So 7c 2b 4b       |
        | seat 3 | Ce 4e 5e 6e 7e       |
        | stock  | 2c 3c Ac Cc 7b Cb 3e |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When these tricks are played:
        | 2e 4c 2b Ce |
      Then seat 3 wins the trick
      And seat 0 may not sing copas
      And seat 1 may sing bastos
      When seat 0 tries to sing copas
      Then the action is refused as CANTE_NO_WON_TRICK under rule CANTE-05

    @S000 @S002 @S003 @S004
    Scenario: Nothing can be sung before the first trick of the hand has been won
      Given a deal by seat 3:
        | seat 0  | Rc Sc 2e 5b 6b 2c |
        | seat 1  | Rb Sb 4c 5c 6c 3c |
        | seat 2  | Ro So 7c 2b 4b Ac |
        | seat 3  | Ce 4e 5e 6e 7e Cc |
        | muestra | 4o                |
      Then seat 0 may not sing copas
      When seat 0 tries to sing copas
      Then the action is refused as CANTE_NO_WON_TRICK under rule CANTE-05

  @CANTE-06
  Rule: CANTE-06 The cante window opens when the side takes a trick and closes when the next card is led

    @S002 @S003 @S004
    Scenario: Leading the next trick closes the cante window for both partners
      Given a hand in the free phase, muestra 4o, seat 0 to lead:
        | seat 0 | Rc Sc 2e 5b 6b       |
        | seat 1 | Rb Sb 4c 5c 6c       |
        | seat 2 | Ro So 7c 2b 4b       |
        | seat 3 | Ce 4e 5e 6e 7e       |
        | stock  | 2c 3c Ac Cc 7b Cb 3e |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When the cards are drawn
      And seat 0 plays 2e
      And seat 2 tries to sing oros
      Then the action is refused as CANTE_NO_WON_TRICK under rule CANTE-05
      When seat 0 tries to sing copas
      Then the action is refused as CANTE_NO_WON_TRICK under rule CANTE-05
      And side 0 has 0 cante points

    @S000 @S002 @S003 @S004
    Scenario: A twenty may be sung before the cards of the won trick are drawn
      Given a hand in the free phase, muestra 4o, seat 0 to lead:
        | seat 0 | Rc Sc 2e 5b 6b       |
        | seat 1 | Rb Sb 4c 5c 6c       |
        | seat 2 | Ro So 7c 2b 4b       |
        | seat 3 | Ce 4e 5e 6e 7e       |
        | stock  | 2c 3c Ac Cc 7b Cb 3e |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When seat 0 sings copas
      And the cards are drawn
      Then seat 0 draws 2c
      And side 0 has 20 cante points

  @CANTE-07
  Rule: CANTE-07 Singing is optional

    @S000 @S002 @S003 @S004
    Scenario: The side may lead the next trick without singing the pair it holds
      Given a hand in the free phase, muestra 4o, seat 0 to lead:
        | seat 0 | Rc Sc 2e 5b 6b       |
        | seat 1 | Rb Sb 4c 5c 6c       |
        | seat 2 | Ro So 7c 2b 4b       |
        | seat 3 | Ce 4e 5e 6e 7e       |
        | stock  | 2c 3c Ac Cc 7b Cb 3e |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When the cards are drawn
      And seat 0 plays Rc
      Then a cante event does not happen
      And side 0 has 0 cante points

  @CANTE-08
  Rule: CANTE-08 A pair need not be sung at the first won trick and may be sung after a later one

    @S000
    Scenario: A pair left unsung after one won trick may be sung after a later trick won by the side
      Given a hand in the free phase, muestra 4o, seat 0 to lead:
        | seat 0 | Rc Sc 2e 5b 6b       |
        | seat 1 | Rb Sb 4c 5c 6c       |
        | seat 2 | Ro So 7c 2b 4b       |
        | seat 3 | Ce 4e 5e 6e 7e       |
        | stock  | 2c 3c Ac Cc 7b Cb 3e |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When these tricks are played:
        | 2e 4c 2b Ce |
        | 4e 5b 3e 4o |
      Then seat 2 wins the trick
      When seat 0 sings copas
      Then side 0 has 20 cante points

  @CANTE-09
  Rule: CANTE-09 Under cante_per_trick=many several cantes may follow one won trick

    @S000 @cante_per_trick=many
    Scenario: With many cantes per trick the forty and a twenty both follow the same won trick
      Given a hand in the free phase, muestra 4o, seat 0 to lead:
        | seat 0 | Rc Sc 2e 5b 6b       |
        | seat 1 | Rb Sb 4c 5c 6c       |
        | seat 2 | Ro So 7c 2b 4b       |
        | seat 3 | Ce 4e 5e 6e 7e       |
        | stock  | 2c 3c Ac Cc 7b Cb 3e |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When seat 2 sings oros
      And seat 0 sings copas
      Then side 0 has 60 cante points

    @S000 @cante_per_trick=many
    Scenario: With many cantes per trick one player sings two twenties after the same won trick
      Given a hand in the free phase, muestra 4o, seat 0 to lead:
        | seat 0 | Rc Sc Re Se 2b       |
        | seat 1 | 4c 5c 6c 2e 4e       |
        | seat 2 | 7c 4b 5b 6b 7b       |
        | seat 3 | 3c Cc 5e 6e 7e       |
        | stock  | Ac 2c 3e Ce Ae Cb 3b |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When seat 0 sings copas
      And seat 0 sings espadas
      Then side 0 has 40 cante points

  @CANTE-10
  Rule: CANTE-10 Under cante_per_trick=one a won trick allows a single cante

    @CANTE-12 @S002 @S003 @cante_per_trick=one
    Scenario: With one cante per trick the singer picks one of two twenties and the other is refused
      Given a hand in the free phase, muestra 4o, seat 0 to lead:
        | seat 0 | Rc Sc Re Se 2b       |
        | seat 1 | 4c 5c 6c 2e 4e       |
        | seat 2 | 7c 4b 5b 6b 7b       |
        | seat 3 | 3c Cc 5e 6e 7e       |
        | stock  | Ac 2c 3e Ce Ae Cb 3b |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When seat 0 sings espadas
      Then seat 0 may not sing copas
      When seat 0 tries to sing copas
      Then the action is refused as CANTE_ONE_PER_TRICK under rule CANTE-10
      And side 0 has 20 cante points

    @S002 @S003 @cante_per_trick=one
    Scenario: With one cante per trick the partner may not add a twenty after the forty
      Given a hand in the free phase, muestra 4o, seat 0 to lead:
        | seat 0 | Rc Sc 2e 5b 6b       |
        | seat 1 | Rb Sb 4c 5c 6c       |
        | seat 2 | Ro So 7c 2b 4b       |
        | seat 3 | Ce 4e 5e 6e 7e       |
        | stock  | 2c 3c Ac Cc 7b Cb 3e |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When seat 2 sings oros
      And seat 0 tries to sing copas
      Then the action is refused as CANTE_ONE_PER_TRICK under rule CANTE-10
      And side 0 has 40 cante points

    @S002 @S003 @cante_per_trick=one
    Scenario: With one cante per trick the twenty left over is sung after the side's next won trick
      Given a hand in the free phase, muestra 4o, seat 0 to lead:
        | seat 0 | Rc Sc Re Se 2b       |
        | seat 1 | 4c 5c 6c 2e 4e       |
        | seat 2 | 7c 4b 5b 6b 7b       |
        | seat 3 | 3c Cc 5e 6e 7e       |
        | stock  | Ac 2c 3e Ce Ae Cb 3b |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When seat 0 sings espadas
      And these tricks are played:
        | Ac 4c 7c 3c |
      Then seat 0 wins the trick
      When seat 0 sings copas
      Then side 0 has 40 cante points

  @CANTE-11
  Rule: CANTE-11 Each suit is sung at most once in a hand

    @S002 @S003
    Scenario: A suit sung after one trick cannot be sung again after the next while another suit can
      Given a hand in the free phase, muestra 4o, seat 0 to lead:
        | seat 0 | Rc Sc Re Se 2b       |
        | seat 1 | 4c 5c 6c 2e 4e       |
        | seat 2 | 7c 4b 5b 6b 7b       |
        | seat 3 | 3c Cc 5e 6e 7e       |
        | stock  | Ac 2c 3e Ce Ae Cb 3b |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When seat 0 sings copas
      And these tricks are played:
        | Ac 4c 7c 3c |
      Then seat 0 wins the trick
      And seat 0 may not sing copas
      When seat 0 tries to sing copas
      Then the action is refused as CANTE_SUIT_ALREADY_SUNG under rule CANTE-11
      When seat 0 sings espadas
      Then side 0 has 40 cante points

    @S002 @S003
    Scenario: A twenty recorded as already sung is refused when its holder wins another trick
      Given a hand in the free phase, muestra 4o, seat 0 to lead:
        | seat 0 | Rc Sc Re Se 2b       |
        | seat 1 | 4c 5c 6c 2e 4e       |
        | seat 2 | 7c 4b 5b 6b 7b       |
        | seat 3 | 3c Cc 5e 6e 7e       |
        | stock  | Ac 2c 3e Ce Ae Cb 3b |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      And seat 0 has already sung copas
      When seat 0 tries to sing copas
      Then the action is refused as CANTE_SUIT_ALREADY_SUNG under rule CANTE-11
      And seat 0 may sing espadas
      And side 0 has 20 cante points

  @CANTE-12
  Rule: CANTE-12 Under cante_order=forty_first the forty held is sung before any twenty

    # B-08: S002/S003 give "the forty first" as advice to beginners; read as a rule it is an interpretation.
    @interpretation @cante_order=forty_first
    Scenario: When the forty comes first a twenty is refused while its singer holds the forty unsung
      Given a hand in the free phase, muestra 4o, seat 0 to lead:
        | seat 0 | Ro So Rc Sc 2e       |
        | seat 1 | 4c 5c 6c 4e 5e       |
        | seat 2 | 7c 4b 5b 6b 7b       |
        | seat 3 | 3c Cc 6e 7e 2b       |
        | stock  | Ac 2c 3e Ce Ae Cb 3b |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      Then seat 0 may sing oros
      And seat 0 may not sing copas
      When seat 0 tries to sing copas
      Then the action is refused as CANTE_FORTY_FIRST under rule CANTE-12
      And side 0 has 0 cante points

    @interpretation @cante_order=forty_first
    Scenario: When the forty comes first a twenty is allowed once the forty has been sung earlier in the hand
      Given a hand in the free phase, muestra 4o, seat 0 to lead:
        | seat 0 | Ro So Rc Sc 2e       |
        | seat 1 | 4c 5c 6c 4e 5e       |
        | seat 2 | 7c 4b 5b 6b 7b       |
        | seat 3 | 3c Cc 6e 7e 2b       |
        | stock  | Ac 2c 3e Ce Ae Cb 3b |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      And seat 0 has already sung oros
      When seat 0 sings copas
      Then side 0 has 60 cante points

    @S002 @S003 @cante_order=free
    Scenario: In free order a twenty may be sung while its singer also holds the forty
      Given a hand in the free phase, muestra 4o, seat 0 to lead:
        | seat 0 | Ro So Rc Sc 2e       |
        | seat 1 | 4c 5c 6c 4e 5e       |
        | seat 2 | 7c 4b 5b 6b 7b       |
        | seat 3 | 3c Cc 6e 7e 2b       |
        | stock  | Ac 2c 3e Ce Ae Cb 3b |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      Then seat 0 may sing copas
      When seat 0 sings copas
      Then side 0 has 20 cante points

    @S000 @interpretation @cante_order=free @cante_per_trick=many
    Scenario: In free order with many cantes the twenty and then the forty follow the same won trick
      Given a hand in the free phase, muestra 4o, seat 0 to lead:
        | seat 0 | Ro So Rc Sc 2e       |
        | seat 1 | 4c 5c 6c 4e 5e       |
        | seat 2 | 7c 4b 5b 6b 7b       |
        | seat 3 | 3c Cc 6e 7e 2b       |
        | stock  | Ac 2c 3e Ce Ae Cb 3b |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When seat 0 sings copas
      And seat 0 sings oros
      Then side 0 has 60 cante points

  @CANTE-13
  Rule: CANTE-13 A twenty is announced with its suit

    @S000 @S004
    Scenario: A twenty sung in the free phase shows its suit to the opponents
      Given a hand in the free phase, muestra 4o, seat 0 to lead:
        | seat 0 | Rc Sc 2e 5b 6b       |
        | seat 1 | Rb Sb 4c 5c 6c       |
        | seat 2 | Ro So 7c 2b 4b       |
        | seat 3 | Ce 4e 5e 6e 7e       |
        | stock  | 2c 3c Ac Cc 7b Cb 3e |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When seat 0 sings copas
      Then seat 1 sees "cantes" as [{"seat": 0, "side": 0, "suit": "c", "value": 20, "arrastre": false}]
      And seat 3 sees "cantes" as [{"seat": 0, "side": 0, "suit": "c", "value": 20, "arrastre": false}]
      And seat 1 sees "sung_suits" as ["c"]

    @S000 @S004
    Scenario: A twenty sung before the last draw keeps its suit visible once the arrastre starts
      Given a hand in the free phase, muestra 4o, seat 0 to lead:
        | seat 0 | Rc Sc 2e 5b 6b |
        | seat 1 | 4c 5c 6c 4e 5e |
        | seat 2 | 7c 4b 7b 2b 3e |
        | seat 3 | 3c Cc 6e 7e Ce |
        | stock  | Ac 2c Cb       |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 3 for side 0 and 1 for side 1
      When seat 0 sings copas
      And the cards are drawn
      Then the phase is arrastre
      And seat 1 sees "cantes" as [{"seat": 0, "side": 0, "suit": "c", "value": 20, "arrastre": false}]

  @CANTE-14
  Rule: CANTE-14 The forty needs no suit named, as the trump suit is known

    @S000
    Scenario: A forty sung in the arrastre is known to the opponents as the trump suit
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | Ro So 2e 5b 6b |
        | seat 1 | 4c 5c 6c 4e 5e |
        | seat 2 | 7c 4b 7b 2b 3e |
        | seat 3 | 3c Cc 6e 7e Ce |
      And seat 0 won the last trick
      And the tricks won so far are 3 for side 0 and 2 for side 1
      When seat 0 sings oros
      Then seat 1 sees "cantes" as [{"seat": 0, "side": 0, "suit": "o", "value": 40, "arrastre": true}]
      And seat 3 sees "sung_suits" as ["o"]

  @CANTE-15
  Rule: CANTE-15 A twenty sung in the arrastre does not tell its suit to the opponents, only to the partner

    @S000 @S004
    Scenario: A twenty sung in the arrastre hides its suit from both opponents
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | Rc Sc 2e 5b 6b |
        | seat 1 | 4c 5c 6c 4e 5e |
        | seat 2 | 7c 4b 7b 2b 3e |
        | seat 3 | 3c Cc 6e 7e Ce |
      And seat 0 won the last trick
      And the tricks won so far are 3 for side 0 and 2 for side 1
      When seat 0 sings copas
      Then seat 1 sees "cantes" as [{"seat": 0, "side": 0, "suit": null, "value": 20, "arrastre": true}]
      And seat 3 sees "cantes" as [{"seat": 0, "side": 0, "suit": null, "value": 20, "arrastre": true}]
      And seat 1 sees "sung_suits" as []

    @S000 @S004
    Scenario: A twenty sung in the arrastre is known to the singer's partner
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | Rc Sc 2e 5b 6b |
        | seat 1 | 4c 5c 6c 4e 5e |
        | seat 2 | 7c 4b 7b 2b 3e |
        | seat 3 | 3c Cc 6e 7e Ce |
      And seat 0 won the last trick
      And the tricks won so far are 3 for side 0 and 2 for side 1
      When seat 0 sings copas
      Then seat 2 sees "cantes" as [{"seat": 0, "side": 0, "suit": "c", "value": 20, "arrastre": true}]
      And seat 2 sees "sung_suits" as ["c"]
      And the state field "cantes" is [{"seat": 0, "side": 0, "suit": "c", "value": 20, "arrastre": true}]

  @CANTE-18
  Rule: CANTE-18 Singing without a won trick is a renuncio, blocked in online play

    @S002 @S003 @renuncio_handling=block
    Scenario: With blocked renuncios a cante by the side that lost the last trick is refused and scores nothing
      Given a hand in the free phase, muestra 4o, seat 0 to lead:
        | seat 0 | Rc Sc 2e 5b 6b       |
        | seat 1 | Rb Sb 4c 5c 6c       |
        | seat 2 | Ro So 7c 2b 4b       |
        | seat 3 | Ce 4e 5e 6e 7e       |
        | stock  | 2c 3c Ac Cc 7b Cb 3e |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When seat 1 tries to sing bastos
      Then the action is refused as CANTE_NO_WON_TRICK under rule CANTE-05
      And side 1 has 0 cante points
      And the hand is not over

  @CANTE-19
  Rule: CANTE-19 Both cards of a cante must be in the singer's hand when he sings

    @S000 @S004
    Scenario: The Sota played to the trick just won no longer completes a twenty
      Given a hand in the free phase, muestra 4o, seat 0 to lead:
        | seat 0 | Rc Sc 2e 5b 6b       |
        | seat 1 | Rb Sb 4c 5c 6c       |
        | seat 2 | Ro So 7c 2b 4b       |
        | seat 3 | Ce 4e 5e 6e 7e       |
        | stock  | 2c 3c Ac Cc 7b Cb 3e |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When these tricks are played:
        | Sc 4c 2b Cc |
      Then seat 0 wins the trick
      And seat 0 may not sing copas
      When seat 0 tries to sing copas
      Then the action is refused as CANTE_NO_PAIR under rule CANTE-19

    @S000 @S004
    Scenario: Partners cannot put together a Rey and a Sota held in different hands
      Given a hand in the free phase, muestra 4o, seat 0 to lead:
        | seat 0 | Rc 2e 5b 6b 2c       |
        | seat 1 | Rb 4c 5c 6c 3c       |
        | seat 2 | Sc Ro 7c 2b 4b       |
        | seat 3 | Ce 4e 5e 6e 7e       |
        | stock  | Sb So Ac Cc 7b Cb 3e |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When seat 0 tries to sing copas
      Then the action is refused as CANTE_NO_PAIR under rule CANTE-19
      When seat 2 tries to sing copas
      Then the action is refused as CANTE_NO_PAIR under rule CANTE-19

  @CANTE-20
  Rule: CANTE-20 Cantes may be made in the arrastre as well as in the free phase

    @S000 @S004
    Scenario: A twenty may be sung after a trick won in the arrastre
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | Rc Sc 2e 5b 6b |
        | seat 1 | 4c 5c 6c 4e 5e |
        | seat 2 | 7c 4b 7b 2b 3e |
        | seat 3 | 3c Cc 6e 7e Ce |
      And seat 0 won the last trick
      And the tricks won so far are 3 for side 0 and 2 for side 1
      When seat 0 sings copas
      Then the phase is arrastre
      And side 0 has 20 cante points

    @S000 @S004
    Scenario: The forty may be sung after a trick won in the arrastre
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | Ro So 2e 5b 6b |
        | seat 1 | 4c 5c 6c 4e 5e |
        | seat 2 | 7c 4b 7b 2b 3e |
        | seat 3 | 3c Cc 6e 7e Ce |
      And seat 0 won the last trick
      And the tricks won so far are 3 for side 0 and 2 for side 1
      When seat 0 sings oros
      Then side 0 has 40 cante points

  @CANTE-21
  Rule: CANTE-21 Under tute=none four Reyes or four Sotas are not sung

    @S000 @tute=none
    Scenario: Without tute four Reyes in one hand cannot be sung as tute
      Given a hand in the free phase, muestra 4o, seat 0 to lead:
        | seat 0 | Ro Rc Re Rb 2e       |
        | seat 1 | 4c 5c 6c 4e 5e       |
        | seat 2 | So Sc Se Sb 7c       |
        | seat 3 | 3c Cc 6e 7e 2b       |
        | stock  | Ac 2c 3e Ce Ae Cb 3b |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      Then seat 0 may not sing tute of reyes
      When seat 0 tries to sing tute of reyes
      Then the action is refused as TUTE_NOT_PLAYED under rule CANTE-21
      And the hand is not over

  @CANTE-22
  Rule: CANTE-22 Under tute=wins_point four Reyes or four Sotas sung after a won trick win the point

    @S002 @S003 @tute=wins_point
    Scenario: Four Reyes sung after a won trick win the point at once
      Given a hand in the free phase, muestra 4o, seat 0 to lead:
        | seat 0 | Ro Rc Re Rb 2e       |
        | seat 1 | 4c 5c 6c 4e 5e       |
        | seat 2 | So Sc Se Sb 7c       |
        | seat 3 | 3c Cc 6e 7e 2b       |
        | stock  | Ac 2c 3e Ce Ae Cb 3b |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      Then seat 0 may sing tute of reyes
      When seat 0 sings tute of reyes
      Then a tute event happens
      And the hand is over because of tute under rule CANTE-22
      And side 0 wins the point

    @S002 @S003 @tute=wins_point
    Scenario: The partner of the trick winner may sing four Sotas as tute
      Given a hand in the free phase, muestra 4o, seat 0 to lead:
        | seat 0 | Ro Rc Re Rb 2e       |
        | seat 1 | 4c 5c 6c 4e 5e       |
        | seat 2 | So Sc Se Sb 7c       |
        | seat 3 | 3c Cc 6e 7e 2b       |
        | stock  | Ac 2c 3e Ce Ae Cb 3b |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When seat 2 sings tute of sotas
      Then the tute event has "seat" 2
      And the tute event has "side" 0
      And the tute event has "rank" "S"
      And the hand is over because of tute under rule CANTE-22
      And side 0 wins the point

    @S002 @S003 @tute=wins_point
    Scenario: Tute is refused to a player whose side did not take the last trick
      Given a hand in the free phase, muestra 4o, seat 1 to lead:
        | seat 0 | Ro Rc Re Rb 2e       |
        | seat 1 | 4c 5c 6c 4e 5e       |
        | seat 2 | So Sc Se Sb 7c       |
        | seat 3 | 3c Cc 6e 7e 2b       |
        | stock  | Ac 2c 3e Ce Ae Cb 3b |
      And seat 1 won the last trick and the cards are not drawn yet
      And the tricks won so far are 1 for side 0 and 2 for side 1
      Then seat 0 may not sing tute of reyes
      When seat 0 tries to sing tute of reyes
      Then the action is refused as CANTE_NO_WON_TRICK under rule CANTE-22
      And the hand is not over

    @S002 @S003 @tute=wins_point
    Scenario: Three Reyes are not a tute
      Given a hand in the free phase, muestra 4o, seat 0 to lead:
        | seat 0 | Ro Rc Re 2e 5b       |
        | seat 1 | 4c 5c 6c 4e 5e       |
        | seat 2 | Rb 7c 4b 6b 7b       |
        | seat 3 | 3c Cc 6e 7e 2b       |
        | stock  | Ac 2c 3e Ce Ae Cb 3b |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      Then seat 0 may not sing tute of reyes
      When seat 0 tries to sing tute of reyes
      Then the action is refused as TUTE_NOT_HELD under rule CANTE-22
      And the hand is not over

  @CANTE-24
  Rule: CANTE-24 The seven may be exchanged first so that the muestra taken completes the forty

    @SEVEN-01 @S004
    Scenario: Taking the Rey of trumps with the seven lets its taker sing the forty at once
      Given a hand in the free phase, muestra Ro, seat 0 to lead:
        | seat 0 | 7o So 2c 5b 6b       |
        | seat 1 | 4c 5c 6c 4e 5e       |
        | seat 2 | 7c 4b 7b 2b 3e       |
        | seat 3 | 3c Cc 6e 7e Ce       |
        | stock  | Ac 3b Cb Sb 2e Rb Ab |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When seat 0 tries to sing oros
      Then the action is refused as CANTE_NO_PAIR under rule CANTE-19
      When seat 0 exchanges for the muestra
      And seat 0 sings oros
      Then seat 0 holds Ro So 2c 5b 6b
      And the muestra is 7o
      And side 0 has 40 cante points

  @CANTE-25
  Rule: CANTE-25 A card drawn after the won trick may complete a cante sung before the next lead

    @interpretation @S002 @S003
    Scenario: A Sota drawn after the won trick completes a twenty that is sung before the next lead
      Given a hand in the free phase, muestra 4o, seat 0 to lead:
        | seat 0 | Rc 2e 5b 6b 2c       |
        | seat 1 | Rb 4c 5c 6c 3c       |
        | seat 2 | Ro So 7c 2b 4b       |
        | seat 3 | Ce 4e 5e 6e 7e       |
        | stock  | Sc Ac Cc Sb 7b Cb 3e |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      Then seat 0 may not sing copas
      When the cards are drawn
      Then seat 0 draws Sc
      And seat 0 may sing copas
      When seat 0 sings copas
      Then side 0 has 20 cante points

  @CANTE-26
  Rule: CANTE-26 Nothing can be sung after the last trick: the last cante follows the eighth trick

    @S000 @S004
    Scenario: A twenty is still possible with the last two cards after the eighth trick
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | Ao Rc Sc |
        | seat 1 | 4o 5c 6c |
        | seat 2 | 5o 7e Ce |
        | seat 3 | 6o 4e 5e |
      And seat 0 won the last trick
      And the tricks won so far are 4 for side 0 and 3 for side 1
      When these tricks are played:
        | Ao 4o 5o 6o |
      Then seat 0 wins the trick
      When seat 0 sings copas
      Then side 0 has 20 cante points

    @S000 @S004
    Scenario: Nothing can be sung once the last trick of the hand has been taken
      Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
        | seat 0 | Ao Rc Sc |
        | seat 1 | 4o 5c 6c |
        | seat 2 | 5o 7e Ce |
        | seat 3 | 6o 4e 5e |
      And seat 0 won the last trick
      And the tricks won so far are 4 for side 0 and 3 for side 1
      When these tricks are played:
        | Ao 4o 5o 6o |
        | Rc 5c 7e 4e |
        | Sc 6c Ce 5e |
      Then the hand is over because of vueltas under rule SCORE-13
      And side 0 has 0 cante points
      When seat 0 tries to sing copas
      Then the action is refused
      And side 0 has 0 cante points

  @CANTE-27
  Rule: CANTE-27 Mano a mano only the player who took the last trick may sing

    @S002 @S003 @S004 @players=2
    Scenario: Mano a mano the taker of the last trick sings and his opponent may not
      Given a hand in the free phase, muestra 4o, seat 1 to lead:
        | seat 0 | Rc Sc 2e 5b 6b |
        | seat 1 | Rb Sb 4c 5c 6c |
        | stock  | 7c             |
      And seat 1 won the last trick and the cards are not drawn yet
      And the tricks won so far are 6 for side 0 and 8 for side 1
      Then seat 0 may not sing copas
      When seat 0 tries to sing copas
      Then the action is refused as CANTE_NO_WON_TRICK under rule CANTE-05
      When seat 1 sings bastos
      Then side 1 has 20 cante points
      And side 0 has 0 cante points

    @CANTE-15 @S004 @players=2
    Scenario: Mano a mano a twenty sung in the arrastre hides its suit from the opponent
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | Rc Sc 2e 5b 6b |
        | seat 1 | Rb Sb 4c 5c 6c |
      And seat 0 won the last trick
      And the tricks won so far are 9 for side 0 and 6 for side 1
      When seat 0 sings copas
      Then seat 1 sees "cantes" as [{"seat": 0, "side": 0, "suit": null, "value": 20, "arrastre": true}]
      And seat 0 sees "cantes" as [{"seat": 0, "side": 0, "suit": "c", "value": 20, "arrastre": true}]

  @CANTE-28
  Rule: CANTE-28 A cante stays scored although the singing side takes no further trick

    @interpretation
    Scenario: A twenty stays in the hand's count when its side loses every trick after it
      Given a hand in the arrastre, trumps in oros, seat 1 to lead:
        | seat 0 | 3c 6e |
        | seat 1 | Rc Sc |
        | seat 2 | Ac Ae |
        | seat 3 | 4e 5e |
      And seat 1 won the last trick
      And the tricks won so far are 5 for side 0 and 3 for side 1
      And the card points so far are 45 for side 0 and 36 for side 1
      When seat 1 sings copas
      And these tricks are played:
        | Sc Ac 4e 3c |
        | Ae 5e 6e Rc |
      Then the hand is over because of vueltas under rule SCORE-13
      And side 1 has 36 card points
      And side 1 has 20 cante points
      And side 1 has 56 points in the hand
      And side 0 has 94 points in the hand

  @CANTE-29
  Rule: CANTE-29 Tute, where played, may be sung in the arrastre and counts as the cante of its trick

    @interpretation @S002 @S003 @tute=wins_point
    Scenario: Tute of Reyes may be sung after a trick won in the arrastre
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | Ro Rc Re Rb Sc |
        | seat 1 | 4c 5c 6c 4e 5e |
        | seat 2 | 7c 4b 7b 2b 3e |
        | seat 3 | 3c Cc 6e 7e Ce |
      And seat 0 won the last trick
      And the tricks won so far are 3 for side 0 and 2 for side 1
      When seat 0 sings tute of reyes
      Then the hand is over because of tute under rule CANTE-22
      And side 0 wins the point

    @interpretation @S002 @S003 @tute=wins_point
    Scenario: Tute may be sung with the four Reyes as the last four cards in hand
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | Ro Rc Re Rb |
        | seat 1 | 4c 5c 6c 4e |
        | seat 2 | 7c 4b 7b 2b |
        | seat 3 | 3c Cc 6e 7e |
      And seat 0 won the last trick
      And the tricks won so far are 4 for side 0 and 2 for side 1
      Then seat 0 may sing tute of reyes
      When seat 0 sings tute of reyes
      Then the tute event has "seat" 0
      And the tute event has "side" 0
      And the tute event has "rank" "R"
      And side 0 wins the point
      And the hand is over because of tute under rule CANTE-22

    @interpretation @tute=wins_point @cante_per_trick=one
    Scenario: With one cante per trick a tute after a twenty in the same window is refused
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | Ro Rc Re Rb Sc |
        | seat 1 | 4c 5c 6c 4e 5e |
        | seat 2 | 7c 4b 7b 2b 3e |
        | seat 3 | 3c Cc 6e 7e Ce |
      And seat 0 won the last trick
      And the tricks won so far are 3 for side 0 and 2 for side 1
      When seat 0 sings copas
      Then seat 0 may not sing tute of reyes
      When seat 0 tries to sing tute of reyes
      Then the action is refused as CANTE_ONE_PER_TRICK under rule CANTE-10
      And the hand is not over

    @interpretation @tute=wins_point @cante_per_trick=many
    Scenario: With many cantes per trick a tute may follow a twenty in the same window
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | Ro Rc Re Rb Sc |
        | seat 1 | 4c 5c 6c 4e 5e |
        | seat 2 | 7c 4b 7b 2b 3e |
        | seat 3 | 3c Cc 6e 7e Ce |
      And seat 0 won the last trick
      And the tricks won so far are 3 for side 0 and 2 for side 1
      When seat 0 sings copas
      And seat 0 sings tute of reyes
      Then the hand is over because of tute under rule CANTE-22
      And side 0 wins the point
