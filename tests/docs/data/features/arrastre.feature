@S000
Feature: Test data for the docs tests

  Background:
    Given a test table of four players

  Rule: following suit

    @ARR-01
    Scenario: A player with the suit led follows it
      Given the hands:
        | seat | cards    |
        | 0    | Ao Sc 2o |
        | 1    | 4o       |
      When seat 1 plays "4o"
      Then the play is accepted

    @ARR-01 @ARR-06 @S004 @partner_winning_exempts=no
    Scenario: The partner is winning and the player must still beat
      Given the position:
        """
        trick: Ao 2c
        """
      Then seat 2 must beat the trick

  Rule: tagged with a rule missing from the index

    @ARR-77 @interpretation
    Scenario: A scenario whose rule is not indexed
      Then nothing
