Feature: Exchanging the seven of trumps for the muestra
  The player holding the seven of trumps may give it for the muestra, the face-up trump
  under the stock, if the muestra outranks the seven. The seven then lies in the muestra's
  place and is drawn last. The sources agree on the exchange itself. They disagree on
  which won trick entitles a player to it (his own last trick, his side's last trick, or
  any trick his side has won) and on when it may be made (between the won trick and its
  draw, until the next lead, or at any time between tricks while the muestra is still
  there). They also disagree on what happens when the muestra is itself the seven. Each
  reading has its own scenarios.

  Unless a scenario says otherwise, trumps are oros, the muestra is the As of oros and seat 0
  holds the seven of oros.

  @SEVEN-01
  Rule: SEVEN-01 The holder of the seven of trumps may exchange it for the muestra

    @S000 @S002 @S003 @S004
    Scenario: The seven of trumps is exchanged for the As shown as muestra
      Given a hand in the free phase, muestra Ao, seat 0 to lead:
        | seat 0 | 7o 2c 4c 5c 6c       |
        | seat 1 | 2e 4e 5e 6e 7e       |
        | seat 2 | 2b 4b 5b 6b 7b       |
        | seat 3 | 3c Cc 3e Ce 3b       |
        | stock  | Sc Rc Se Re Sb Rb Cb |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      Then seat 0 may exchange for the muestra
      When seat 0 exchanges for the muestra
      Then an exchange event happens
      And seat 0 holds Ao 2c 4c 5c 6c
      And the state field "exchange_done" is true

    @S000 @S002 @S003 @S004
    Scenario: A player without the seven of trumps cannot take the muestra
      Given a hand in the free phase, muestra Ao, seat 0 to lead:
        | seat 0 | 7b 2c 4c 5c 6c       |
        | seat 1 | 2e 4e 5e 6e 7e       |
        | seat 2 | 2b 4b 5b 6b 7o       |
        | seat 3 | 3c Cc 3e Ce 3b       |
        | stock  | Sc Rc Se Re Sb Rb Cb |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      Then seat 0 may not exchange for the muestra
      When seat 0 tries to exchange for the muestra
      Then the action is refused as EXCHANGE_CARD_NOT_HELD under rule SEVEN-01
      And the muestra is Ao

    @CANTE-24 @S004
    Scenario: Exchanging first for the Sota of trumps lets the exchanger sing the forty with his Rey
      Given a hand in the free phase, muestra So, seat 0 to lead:
        | seat 0 | 7o Ro 2c 5b 6b       |
        | seat 1 | 4c 5c 6c 4e 5e       |
        | seat 2 | 7c 4b 7b 2b 3e       |
        | seat 3 | 3c Cc 6e 7e Ce       |
        | stock  | Ac 3b Cb Sb 2e Rb Ab |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When seat 0 exchanges for the muestra
      And seat 0 sings oros
      Then seat 0 holds Ro So 2c 5b 6b
      And side 0 has 40 cante points

  @SEVEN-02
  Rule: SEVEN-02 Only a muestra that outranks the seven can be taken: As, Tres, Rey, Sota or Caballo

    @S000 @seven_exchange_min=value_card
    Scenario: A Caballo muestra, a card with points, is taken with the seven
      Given a hand in the free phase, muestra Co, seat 0 to lead:
        | seat 0 | 7o 2c 4c 5c 6c       |
        | seat 1 | 2e 4e 5e 6e 7e       |
        | seat 2 | 2b 4b 5b 6b 7b       |
        | seat 3 | 3c Cc 3e Ce 3b       |
        | stock  | Sc Rc Se Re Sb Rb Cb |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When seat 0 exchanges for the muestra
      Then seat 0 holds Co 2c 4c 5c 6c
      And the muestra is 7o

    @S002 @S003 @S004 @seven_exchange_min=higher_than_seven
    Scenario: A Caballo muestra, the lowest card above the seven, is taken with the seven
      Given a hand in the free phase, muestra Co, seat 0 to lead:
        | seat 0 | 7o 2c 4c 5c 6c       |
        | seat 1 | 2e 4e 5e 6e 7e       |
        | seat 2 | 2b 4b 5b 6b 7b       |
        | seat 3 | 3c Cc 3e Ce 3b       |
        | stock  | Sc Rc Se Re Sb Rb Cb |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When seat 0 exchanges for the muestra
      Then seat 0 holds Co 2c 4c 5c 6c
      And the muestra is 7o

    @S000 @S002 @S003 @S004
    Scenario: A muestra of 6 cannot be taken with the seven
      Given a hand in the free phase, muestra 6o, seat 0 to lead:
        | seat 0 | 7o 2c 4c 5c 6c       |
        | seat 1 | 2e 4e 5e 6e 7e       |
        | seat 2 | 2b 4b 5b 6b 7b       |
        | seat 3 | 3c Cc 3e Ce 3b       |
        | stock  | Sc Rc Se Re Sb Rb Cb |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      Then seat 0 may not exchange for the muestra
      When seat 0 tries to exchange for the muestra
      Then the action is refused as EXCHANGE_MUESTRA_NOT_ELIGIBLE under rule SEVEN-02
      And the muestra is 6o

    @S000 @S002 @S003 @S004
    Scenario: A muestra of 5 cannot be taken with the seven
      Given a hand in the free phase, muestra 5o, seat 0 to lead:
        | seat 0 | 7o 2c 4c 5c 6c       |
        | seat 1 | 2e 4e 5e 6e 7e       |
        | seat 2 | 2b 4b 5b 6b 7b       |
        | seat 3 | 3c Cc 3e Ce 3b       |
        | stock  | Sc Rc Se Re Sb Rb Cb |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When seat 0 tries to exchange for the muestra
      Then the action is refused as EXCHANGE_MUESTRA_NOT_ELIGIBLE under rule SEVEN-02

    @S000 @S002 @S003 @S004
    Scenario: A muestra of 4 cannot be taken with the seven
      Given a hand in the free phase, muestra 4o, seat 0 to lead:
        | seat 0 | 7o 2c 4c 5c 6c       |
        | seat 1 | 2e 4e 5e 6e 7e       |
        | seat 2 | 2b 4b 5b 6b 7b       |
        | seat 3 | 3c Cc 3e Ce 3b       |
        | stock  | Sc Rc Se Re Sb Rb Cb |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When seat 0 tries to exchange for the muestra
      Then the action is refused as EXCHANGE_MUESTRA_NOT_ELIGIBLE under rule SEVEN-02

    @S000 @S002 @S003 @S004
    Scenario: A muestra of 2 cannot be taken with the seven
      Given a hand in the free phase, muestra 2o, seat 0 to lead:
        | seat 0 | 7o 2c 4c 5c 6c       |
        | seat 1 | 2e 4e 5e 6e 7e       |
        | seat 2 | 2b 4b 5b 6b 7b       |
        | seat 3 | 3c Cc 3e Ce 3b       |
        | stock  | Sc Rc Se Re Sb Rb Cb |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When seat 0 tries to exchange for the muestra
      Then the action is refused as EXCHANGE_MUESTRA_NOT_ELIGIBLE under rule SEVEN-02
      And the muestra is 2o

  @SEVEN-03
  Rule: SEVEN-03 S000: the exchanger must himself have taken the trick just played

    @S000 @S004 @seven_exchange_requires=exchanger_won_last_trick
    Scenario: When the exchanger himself must take the trick, its taker exchanges before the draw
      Given a hand in the free phase, muestra Ao, seat 0 to lead:
        | seat 0 | 7o 2c 4c 5c 6c       |
        | seat 1 | 2e 4e 5e 6e 7e       |
        | seat 2 | 2b 4b 5b 6b 7b       |
        | seat 3 | 3c Cc 3e Ce 3b       |
        | stock  | Sc Rc Se Re Sb Rb Cb |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When seat 0 exchanges for the muestra
      Then seat 0 holds Ao 2c 4c 5c 6c
      And the muestra is 7o

    @SEVEN-10 @S000 @S004 @seven_exchange_requires=exchanger_won_last_trick
    Scenario: When the exchanger himself must take the trick, the partner of its taker may not exchange
      Given a hand in the free phase, muestra Ao, seat 0 to lead:
        | seat 0 | 7b 2c 4c 5c 6c       |
        | seat 1 | 2e 4e 5e 6e 7e       |
        | seat 2 | 2b 4b 5b 6b 7o       |
        | seat 3 | 3c Cc 3e Ce 3b       |
        | stock  | Sc Rc Se Re Sb Rb Cb |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      Then seat 2 may not exchange for the muestra
      When seat 2 tries to exchange for the muestra
      Then the action is refused as EXCHANGE_NO_WON_TRICK
      And the muestra is Ao

    @S000 @S004 @seven_exchange_requires=exchanger_won_last_trick
    Scenario: When the exchanger himself must take the trick, an earlier trick of his side does not entitle him
      Given a hand in the free phase, muestra Ao, seat 1 to lead:
        | seat 0 | 7o 2c 4c 5c 6c       |
        | seat 1 | 2e 4e 5e 6e 7e       |
        | seat 2 | 2b 4b 5b 6b 7b       |
        | seat 3 | 3c Cc 3e Ce 3b       |
        | stock  | Sc Rc Se Re Sb Rb Cb |
      And seat 1 won the last trick and the cards are not drawn yet
      And the tricks won so far are 1 for side 0 and 2 for side 1
      When seat 0 tries to exchange for the muestra
      Then the action is refused as EXCHANGE_NO_WON_TRICK

  @SEVEN-04
  Rule: SEVEN-04 S002/S003: a trick already won by the exchanger's side entitles him while the muestra is visible

    @S002 @S003 @seven_exchange_requires=own_side_won_any_trick @seven_exchange_window=between_tricks
    Scenario: When any trick of the side counts, an earlier trick entitles the exchange after the opponents took the last
      Given a hand in the free phase, muestra Ao, seat 1 to lead:
        | seat 0 | 7o 2c 4c 5c 6c       |
        | seat 1 | 2e 4e 5e 6e 7e       |
        | seat 2 | 2b 4b 5b 6b 7b       |
        | seat 3 | 3c Cc 3e Ce 3b       |
        | stock  | Sc Rc Se Re Sb Rb Cb |
      And seat 1 won the last trick and the cards are not drawn yet
      And the tricks won so far are 1 for side 0 and 2 for side 1
      Then seat 0 may exchange for the muestra
      When seat 0 exchanges for the muestra
      Then seat 0 holds Ao 2c 4c 5c 6c
      And the muestra is 7o

    @S002 @S003 @seven_exchange_requires=own_side_won_any_trick @seven_exchange_window=between_tricks
    Scenario: When any trick of the side counts, the partner of the trick's taker may exchange
      Given a hand in the free phase, muestra Ao, seat 0 to lead:
        | seat 0 | 7b 2c 4c 5c 6c       |
        | seat 1 | 2e 4e 5e 6e 7e       |
        | seat 2 | 2b 4b 5b 6b 7o       |
        | seat 3 | 3c Cc 3e Ce 3b       |
        | stock  | Sc Rc Se Re Sb Rb Cb |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When seat 2 exchanges for the muestra
      Then seat 2 holds Ao 2b 4b 5b 6b

    @S002 @S003 @seven_exchange_requires=own_side_won_any_trick
    Scenario: When any trick of the side counts, a side that has won no trick cannot exchange
      Given a hand in the free phase, muestra Ao, seat 1 to lead:
        | seat 0 | 7o 2c 4c 5c 6c       |
        | seat 1 | 2e 4e 5e 6e 7e       |
        | seat 2 | 2b 4b 5b 6b 7b       |
        | seat 3 | 3c Cc 3e Ce 3b       |
        | stock  | Sc Rc Se Re Sb Rb Cb |
      And seat 1 won the last trick and the cards are not drawn yet
      And the tricks won so far are 0 for side 0 and 3 for side 1
      Then seat 0 may not exchange for the muestra
      When seat 0 tries to exchange for the muestra
      Then the action is refused as EXCHANGE_NO_WON_TRICK

    @SEVEN-03 @SEVEN-05 @S000 @S002 @S003 @S004
    Scenario: Under every reading no exchange is possible before a trick has been won
      Given a deal by seat 3:
        | seat 0  | 7o 2c 4c 5c 6c Sc |
        | seat 1  | 2e 4e 5e 6e 7e Rc |
        | seat 2  | 2b 4b 5b 6b 7b Se |
        | seat 3  | 3c Cc 3e Ce 3b Re |
        | muestra | Ao                |
      Then seat 0 may not exchange for the muestra
      When seat 0 tries to exchange for the muestra
      Then the action is refused as EXCHANGE_NO_WON_TRICK

  @SEVEN-05
  Rule: SEVEN-05 S004: the last trick must be the exchanger's, read as his side's

    @S004 @seven_exchange_requires=own_side_won_last_trick
    Scenario: When the side's last trick counts, the partner of the trick's taker may exchange
      Given a hand in the free phase, muestra Ao, seat 0 to lead:
        | seat 0 | 7b 2c 4c 5c 6c       |
        | seat 1 | 2e 4e 5e 6e 7e       |
        | seat 2 | 2b 4b 5b 6b 7o       |
        | seat 3 | 3c Cc 3e Ce 3b       |
        | stock  | Sc Rc Se Re Sb Rb Cb |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      Then seat 2 may exchange for the muestra
      When seat 2 exchanges for the muestra
      Then seat 2 holds Ao 2b 4b 5b 6b
      And the muestra is 7o

    @S004 @seven_exchange_requires=own_side_won_last_trick
    Scenario: When the side's last trick counts, an earlier trick of the side does not entitle after the opponents took the last
      Given a hand in the free phase, muestra Ao, seat 1 to lead:
        | seat 0 | 7o 2c 4c 5c 6c       |
        | seat 1 | 2e 4e 5e 6e 7e       |
        | seat 2 | 2b 4b 5b 6b 7b       |
        | seat 3 | 3c Cc 3e Ce 3b       |
        | stock  | Sc Rc Se Re Sb Rb Cb |
      And seat 1 won the last trick and the cards are not drawn yet
      And the tricks won so far are 1 for side 0 and 2 for side 1
      When seat 0 tries to exchange for the muestra
      Then the action is refused as EXCHANGE_NO_WON_TRICK

  @SEVEN-06
  Rule: SEVEN-06 No exchange once the muestra has been drawn

    @S000 @S002 @S003 @S004
    Scenario: No exchange is possible in the arrastre
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | 7o 2c 4c 5c 6c |
        | seat 1 | 2e 4e 5e 6e 7e |
        | seat 2 | 2b 4b 5b 6b 7b |
        | seat 3 | 3c Cc 3e Ce 3b |
      And seat 0 won the last trick
      And the tricks won so far are 3 for side 0 and 2 for side 1
      Then seat 0 may not exchange for the muestra
      When seat 0 tries to exchange for the muestra
      Then the action is refused as EXCHANGE_NO_MUESTRA under rule SEVEN-06

    @S000 @S002 @S003 @S004
    Scenario: A seven kept through the last draw can no longer be exchanged
      Given a hand in the free phase, muestra Ao, seat 0 to lead:
        | seat 0 | 7o 2c 4c 5c 6c |
        | seat 1 | 2e 4e 5e 6e 7e |
        | seat 2 | 2b 4b 5b 6b 7b |
        | seat 3 | 3c Cc 3e Ce 3b |
        | stock  | Sc Rc Se       |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 3 for side 0 and 1 for side 1
      When the cards are drawn
      Then seat 3 draws Ao
      And the muestra is gone
      When seat 0 tries to exchange for the muestra
      Then the action is refused as EXCHANGE_NO_MUESTRA under rule SEVEN-06

  @SEVEN-07
  Rule: SEVEN-07 The exchange may wait until the last draw

    @S000 @S004
    Scenario: The seven may be exchanged after the trick that precedes the last draw
      Given a hand in the free phase, muestra Ao, seat 0 to lead:
        | seat 0 | 7o 2c 4c 5c 6c |
        | seat 1 | 2e 4e 5e 6e 7e |
        | seat 2 | 2b 4b 5b 6b 7b |
        | seat 3 | 3c Cc 3e Ce 3b |
        | stock  | Sc Rc Se       |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 3 for side 0 and 1 for side 1
      When seat 0 exchanges for the muestra
      Then seat 0 holds Ao 2c 4c 5c 6c
      And the muestra is 7o
      And 4 cards are left to draw

  @SEVEN-08
  Rule: SEVEN-08 The exchange is optional and may be put off to a later won trick

    @S000 @S002 @S003 @S004
    Scenario: The holder of the seven lets one won trick pass and exchanges after a later one
      Given a hand in the free phase, muestra Ao, seat 0 to lead:
        | seat 0 | 7o 2c 4c 5c 6c       |
        | seat 1 | 2e 4e 5e 6e 7e       |
        | seat 2 | 2b 4b 5b 6b 7b       |
        | seat 3 | 3c Cc 3e Ce 3b       |
        | stock  | Sc Rc Se Re Sb Rb Cb |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      Then seat 0 may exchange for the muestra
      When these tricks are played:
        | Sc 2e 2b Cc |
      Then seat 0 wins the trick
      And the muestra is Ao
      When seat 0 exchanges for the muestra
      Then seat 0 holds Ao 2c 4c 5c 6c
      And the muestra is 7o

  @SEVEN-09
  Rule: SEVEN-09 When the muestra is the seven of trumps, the holder of the dos may take it

    @S002 @S003 @seven_is_muestra=swap_with_two
    Scenario: With the dos swap, the holder of the dos of trumps takes a seven muestra
      Given a hand in the free phase, muestra 7o, seat 0 to lead:
        | seat 0 | 2o 2c 4c 5c 6c       |
        | seat 1 | 2e 4e 5e 6e 7e       |
        | seat 2 | 2b 4b 5b 6b 7b       |
        | seat 3 | 3c Cc 3e Ce 3b       |
        | stock  | Sc Rc Se Re Sb Rb Cb |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      Then seat 0 may exchange for the muestra
      When seat 0 exchanges for the muestra
      Then seat 0 holds 7o 2c 4c 5c 6c
      And the muestra is 2o

    # B-40: read as the lowest trump, S002's dos is still the dos when the deck has doses.
    @interpretation @seven_is_muestra=swap_with_lowest
    Scenario: Reading the dos as the lowest trump, with 40 cards the holder of the dos takes a seven muestra
      Given a hand in the free phase, muestra 7o, seat 0 to lead:
        | seat 0 | 2o 2c 4c 5c 6c       |
        | seat 1 | 2e 4e 5e 6e 7e       |
        | seat 2 | 2b 4b 5b 6b 7b       |
        | seat 3 | 3c Cc 3e Ce 3b       |
        | stock  | Sc Rc Se Re Sb Rb Cb |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      Then seat 0 may exchange for the muestra
      When seat 0 exchanges for the muestra
      Then seat 0 holds 7o 2c 4c 5c 6c
      And the muestra is 2o

    @interpretation @seven_is_muestra=none
    Scenario: Without the dos swap, a seven muestra cannot be taken
      Given a hand in the free phase, muestra 7o, seat 0 to lead:
        | seat 0 | 2o 2c 4c 5c 6c       |
        | seat 1 | 2e 4e 5e 6e 7e       |
        | seat 2 | 2b 4b 5b 6b 7b       |
        | seat 3 | 3c Cc 3e Ce 3b       |
        | stock  | Sc Rc Se Re Sb Rb Cb |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      Then seat 0 may not exchange for the muestra
      When seat 0 tries to exchange for the muestra
      Then the action is refused as EXCHANGE_MUESTRA_NOT_ELIGIBLE
      And the muestra is 7o

    @S002 @S003 @seven_is_muestra=swap_with_two @seven_exchange_requires=own_side_won_any_trick
    Scenario: With the dos swap, the holder of the dos needs a trick won by his side like the holder of the seven
      Given a hand in the free phase, muestra 7o, seat 1 to lead:
        | seat 0 | 2o 2c 4c 5c 6c       |
        | seat 1 | 2e 4e 5e 6e 7e       |
        | seat 2 | 2b 4b 5b 6b 7b       |
        | seat 3 | 3c Cc 3e Ce 3b       |
        | stock  | Sc Rc Se Re Sb Rb Cb |
      And seat 1 won the last trick and the cards are not drawn yet
      And the tricks won so far are 0 for side 0 and 3 for side 1
      When seat 0 tries to exchange for the muestra
      Then the action is refused as EXCHANGE_NO_WON_TRICK

  @SEVEN-10
  Rule: SEVEN-10 The seven may never be given to the partner

    @S004 @seven_exchange_requires=own_side_won_last_trick
    Scenario: When the side's last trick counts, a seven given by the taker's partner at the last draw goes to an opponent
      Given a hand in the free phase, muestra Ao, seat 0 to lead:
        | seat 0 | 7b 2c 4c 5c 6c |
        | seat 1 | 2e 4e 5e 6e 7e |
        | seat 2 | 2b 4b 5b 6b 7o |
        | seat 3 | 3c Cc 3e Ce 3b |
        | stock  | Sc Rc Se       |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 3 for side 0 and 1 for side 1
      When seat 2 exchanges for the muestra
      And the cards are drawn
      Then seat 0 draws Sc
      And seat 3 draws 7o
      And seat 2 holds Ao 2b 4b 5b 6b Se

  @SEVEN-11
  Rule: SEVEN-11 The seven given lies in the muestra's place and is drawn last

    @S000 @S002 @S003 @S004
    Scenario: After the exchange the seven lies as muestra and trumps stay oros
      Given a hand in the free phase, muestra Ao, seat 0 to lead:
        | seat 0 | 7o 2c 4c 5c 6c       |
        | seat 1 | 2e 4e 5e 6e 7e       |
        | seat 2 | 2b 4b 5b 6b 7b       |
        | seat 3 | 3c Cc 3e Ce 3b       |
        | stock  | Sc Rc Se Re Sb Rb Cb |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When seat 0 exchanges for the muestra
      Then the muestra is 7o
      And the trump suit is oros
      And 8 cards are left to draw

    @S000 @S002 @S003 @S004
    Scenario: After an exchange at the last draw the last drawer takes the seven
      Given a hand in the free phase, muestra Ao, seat 0 to lead:
        | seat 0 | 7o 2c 4c 5c 6c |
        | seat 1 | 2e 4e 5e 6e 7e |
        | seat 2 | 2b 4b 5b 6b 7b |
        | seat 3 | 3c Cc 3e Ce 3b |
        | stock  | Sc Rc Se       |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 3 for side 0 and 1 for side 1
      When seat 0 exchanges for the muestra
      And the cards are drawn
      Then the draw order is seats 0, 1, 2, 3
      And seat 0 draws Sc
      And seat 3 draws 7o
      And seat 0 holds Ao 2c 4c 5c 6c Sc
      And seat 3 holds 3c Cc 3e Ce 3b 7o
      And the muestra is gone
      And the phase is arrastre

  @SEVEN-13
  Rule: SEVEN-13 The muestra is exchanged at most once in a hand

    @interpretation @S002 @S003 @seven_is_muestra=swap_with_two @seven_exchange_requires=own_side_won_any_trick
    Scenario: The seven lying as muestra after an exchange cannot be taken by the holder of the dos
      Given a hand in the free phase, muestra Ao, seat 0 to lead:
        | seat 0 | 7o 2c 4c 5c 6c       |
        | seat 1 | 2e 4e 5e 6e 7e       |
        | seat 2 | 2o 4b 5b 6b 7b       |
        | seat 3 | 3c Cc 3e Ce 3b       |
        | stock  | Sc Rc Se Re Sb Rb Cb |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When seat 0 exchanges for the muestra
      Then seat 2 may not exchange for the muestra
      When seat 2 tries to exchange for the muestra
      Then the action is refused as EXCHANGE_MUESTRA_NOT_ELIGIBLE
      And the muestra is 7o

    @interpretation @S002 @S003 @seven_is_muestra=swap_with_two
    Scenario: Once the muestra has been exchanged the dos of trumps cannot take the seven back after a later trick
      Given a hand in the free phase, muestra 7o, seat 2 to lead:
        | seat 0 | Ao 2c 4c 5c 6c       |
        | seat 1 | 2e 4e 5e 6e 7e       |
        | seat 2 | 2o 4b 5b 6b 7b       |
        | seat 3 | 3c Cc 3e Ce 3b       |
        | stock  | Sc Rc Se Re Sb Rb Cb |
      And seat 2 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      And the muestra has already been exchanged
      When seat 2 tries to exchange for the muestra
      Then the action is refused as EXCHANGE_MUESTRA_NOT_ELIGIBLE
      And seat 2 holds 2o 4b 5b 6b 7b

  @SEVEN-14
  Rule: SEVEN-14 An exchanger who is the last drawer draws the seven back

    @interpretation @S002 @S003 @seven_exchange_requires=own_side_won_any_trick @seven_exchange_window=between_tricks
    Scenario: When any trick of the side counts, the last drawer may exchange and then draw his own seven back
      Given a hand in the free phase, muestra Ao, seat 1 to lead:
        | seat 0 | 7o 2c 4c 5c 6c |
        | seat 1 | 2e 4e 5e 6e 7e |
        | seat 2 | 2b 4b 5b 6b 7b |
        | seat 3 | 3c Cc 3e Ce 3b |
        | stock  | Sc Rc Se       |
      And seat 1 won the last trick and the cards are not drawn yet
      And the tricks won so far are 1 for side 0 and 3 for side 1
      When seat 0 exchanges for the muestra
      And the cards are drawn
      Then the draw order is seats 1, 2, 3, 0
      And seat 0 draws 7o
      And seat 0 holds Ao 7o 2c 4c 5c 6c

  @SEVEN-15
  Rule: SEVEN-15 Mano a mano the exchange follows the same rules, each player being his own side

    @S002 @S003 @S004 @players=2
    Scenario: Mano a mano the taker of the last trick exchanges and his opponent draws the seven at the last draw
      Given a hand in the free phase, muestra Ao, seat 0 to lead:
        | seat 0 | 7o 2c 4c 5c 6c |
        | seat 1 | 2e 4e 5e 6e 7e |
        | stock  | 2b             |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 8 for side 0 and 6 for side 1
      When seat 0 exchanges for the muestra
      And the cards are drawn
      Then seat 0 draws 2b
      And seat 1 draws 7o
      And seat 0 holds Ao 2b 2c 4c 5c 6c
      And the phase is arrastre

    @S004 @players=2 @seven_exchange_requires=exchanger_won_last_trick
    Scenario: Mano a mano when the exchanger must take the trick the loser of the last trick may not exchange
      Given a hand in the free phase, muestra Ao, seat 1 to lead:
        | seat 0 | 7o 2c 4c 5c 6c |
        | seat 1 | 2e 4e 5e 6e 7e |
        | stock  | 2b             |
      And seat 1 won the last trick and the cards are not drawn yet
      And the tricks won so far are 8 for side 0 and 6 for side 1
      When seat 0 tries to exchange for the muestra
      Then the action is refused as EXCHANGE_NO_WON_TRICK

    @SEVEN-14 @interpretation @S002 @S003 @players=2 @seven_exchange_requires=own_side_won_any_trick
    Scenario: Mano a mano when any trick counts the loser of the last trick exchanges and draws the seven back
      Given a hand in the free phase, muestra Ao, seat 1 to lead:
        | seat 0 | 7o 2c 4c 5c 6c |
        | seat 1 | 2e 4e 5e 6e 7e |
        | stock  | 2b             |
      And seat 1 won the last trick and the cards are not drawn yet
      And the tricks won so far are 8 for side 0 and 6 for side 1
      When seat 0 exchanges for the muestra
      And the cards are drawn
      Then seat 1 draws 2b
      And seat 0 draws 7o
      And seat 0 holds Ao 7o 2c 4c 5c 6c

  @SEVEN-16
  Rule: SEVEN-16 The exchange is made between the won trick and its draw, until the next lead, or at any moment between tricks

    @SEVEN-03 @S000 @seven_exchange_window=after_won_trick_before_draw
    Scenario: When the exchange must precede the draw it is refused once the cards are drawn
      Given a hand in the free phase, muestra Ao, seat 0 to lead:
        | seat 0 | 7o 2c 4c 5c 6c       |
        | seat 1 | 2e 4e 5e 6e 7e       |
        | seat 2 | 2b 4b 5b 6b 7b       |
        | seat 3 | 3c Cc 3e Ce 3b       |
        | stock  | Sc Rc Se Re Sb Rb Cb |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When the cards are drawn
      Then seat 0 may not exchange for the muestra
      When seat 0 tries to exchange for the muestra
      Then the action is refused as EXCHANGE_WINDOW_CLOSED under rule SEVEN-03
      And the muestra is Ao

    @SEVEN-04 @S002 @S003 @seven_exchange_window=between_tricks
    Scenario: Between tricks the exchange is allowed after the draw
      Given a hand in the free phase, muestra Ao, seat 0 to lead:
        | seat 0 | 7o 2c 4c 5c 6c       |
        | seat 1 | 2e 4e 5e 6e 7e       |
        | seat 2 | 2b 4b 5b 6b 7b       |
        | seat 3 | 3c Cc 3e Ce 3b       |
        | stock  | Sc Rc Se Re Sb Rb Cb |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When the cards are drawn
      Then seat 0 may exchange for the muestra
      When seat 0 exchanges for the muestra
      Then seat 0 holds Ao 2c 4c 5c 6c Sc
      And the muestra is 7o

    # B-12: S002/S003 ask only for a trick won by the side and the muestra still visible; they say
    # nothing of the middle of a trick. Between tricks is their words; also mid-trick is the
    # project's reading of their silence. The same exchange, on the exchanger's turn, under each.
    @SEVEN-04 @S002 @S003 @seven_exchange_requires=own_side_won_any_trick @seven_exchange_window=between_tricks
    Scenario: Between tricks only, the exchange is refused in the middle of a trick even on the exchanger's turn
      Given a hand in the free phase, muestra Ao, seat 1 to lead:
        | seat 0 | 7o 2c 4c 5c 6c Sc |
        | seat 1 | 4e 5e 6e 7e Rc    |
        | seat 2 | 4b 5b 6b 7b Se    |
        | seat 3 | Cc 3e Ce 3b Re    |
        | stock  | Sb Rb Cb          |
      And seat 1 won the last trick
      And the tricks won so far are 1 for side 0 and 2 for side 1
      And the trick so far is 2e 2b 3c
      Then seat 0 may not exchange for the muestra
      When seat 0 tries to exchange for the muestra
      Then the action is refused as EXCHANGE_WINDOW_CLOSED
      And seat 0 holds 7o 2c 4c 5c 6c Sc
      And the muestra is Ao

    @SEVEN-04 @interpretation @seven_exchange_requires=own_side_won_any_trick @seven_exchange_window=while_muestra_visible
    Scenario: At any moment the muestra is visible, the exchange is allowed in the middle of a trick on the exchanger's turn
      Given a hand in the free phase, muestra Ao, seat 1 to lead:
        | seat 0 | 7o 2c 4c 5c 6c Sc |
        | seat 1 | 4e 5e 6e 7e Rc    |
        | seat 2 | 4b 5b 6b 7b Se    |
        | seat 3 | Cc 3e Ce 3b Re    |
        | stock  | Sb Rb Cb          |
      And seat 1 won the last trick
      And the tricks won so far are 1 for side 0 and 2 for side 1
      And the trick so far is 2e 2b 3c
      Then seat 0 may exchange for the muestra
      When seat 0 exchanges for the muestra
      And seat 0 plays Ao
      Then seat 0 wins the trick
      And the muestra is 7o

    @SEVEN-03 @S000 @seven_exchange_window=after_won_trick_before_draw
    Scenario: When the exchange must precede the draw the taker of the trick may not exchange once he has led the next one
      Given a hand in the free phase, muestra Ao, seat 0 to lead:
        | seat 0 | 7o 4c 5c 6c Sc    |
        | seat 1 | 4e 5e 6e 7e Rc    |
        | seat 2 | 2b 4b 5b 6b 7b Se |
        | seat 3 | 3c Cc 3e Ce 3b Re |
        | stock  | Sb Rb Cb          |
      And seat 0 won the last trick
      And the tricks won so far are 2 for side 0 and 1 for side 1
      And the trick so far is 2c 2e
      When seat 0 tries to exchange for the muestra
      Then the action is refused as EXCHANGE_WINDOW_CLOSED under rule SEVEN-03
      And seat 0 holds 7o 4c 5c 6c Sc
      And the muestra is Ao

    # B-12: S004 asks only that the last trick be the exchanger's, and calls waiting for the last
    # draw the usual practice; read like its cantes, the window lasts from the won trick to the next lead.
    @SEVEN-03 @SEVEN-16 @S004 @seven_exchange_window=until_next_lead @seven_exchange_requires=exchanger_won_last_trick
    Scenario: Under S004's window the taker of the trick may still exchange after the draw, before he leads
      Given a hand in the free phase, muestra Ao, seat 0 to lead:
        | seat 0 | 7o 2c 4c 5c 6c       |
        | seat 1 | 2e 4e 5e 6e 7e       |
        | seat 2 | 2b 4b 5b 6b 7b       |
        | seat 3 | 3c Cc 3e Ce 3b       |
        | stock  | Sc Rc Se Re Sb Rb Cb |
      And seat 0 won the last trick and the cards are not drawn yet
      And the tricks won so far are 2 for side 0 and 1 for side 1
      When the cards are drawn
      Then seat 0 may exchange for the muestra
      When seat 0 exchanges for the muestra
      Then seat 0 holds Ao 2c 4c 5c 6c Sc
      And the muestra is 7o

    @SEVEN-03 @SEVEN-16 @S004 @seven_exchange_window=until_next_lead
    Scenario: Under S004's window the taker of the trick may not exchange once he has led the next one
      Given a hand in the free phase, muestra Ao, seat 0 to lead:
        | seat 0 | 7o 4c 5c 6c Sc    |
        | seat 1 | 4e 5e 6e 7e Rc    |
        | seat 2 | 2b 4b 5b 6b 7b Se |
        | seat 3 | 3c Cc 3e Ce 3b Re |
        | stock  | Sb Rb Cb          |
      And seat 0 won the last trick
      And the tricks won so far are 2 for side 0 and 1 for side 1
      And the trick so far is 2c 2e
      When seat 0 tries to exchange for the muestra
      Then the action is refused as EXCHANGE_WINDOW_CLOSED under rule SEVEN-03
      And seat 0 holds 7o 4c 5c 6c Sc
      And the muestra is Ao
