"""The reach routes on the cluster: an address given, replaced, verified, used to sign in and
withdrawn (the reference tables `player_emails` and `email_tokens` written with a player's
outbox rows in their shard, by `fd_change_email` and `fd_forget_email` as by `fd_set_email`), a
browser's push subscription, settings, an unsubscribe link written by a game's own
notification, and no address anywhere but its owner's: the HTTP tests of tests/service/http, on
a database of the cluster (this directory's `db_factory`)."""
from tests.service.http.test_reach_email import (  # noqa: F401 - the fixture and the same tests, on the cluster
    mailing,
    test_a_link_for_an_address_since_replaced_verifies_nothing,
    test_an_address_is_given_verified_by_its_link_once_and_withdrawn,
    test_no_one_but_its_owner_ever_sees_an_address,
    test_signing_in_by_e_mail_answers_the_same_and_mails_a_code_to_a_verified_address,
)
from tests.service.http.test_reach_push_settings import (  # noqa: F401
    push,
    reach_live,
    test_a_browser_subscribes_renews_lists_and_removes,
    test_an_unsubscribe_link_shows_a_page_then_one_click_turns_that_e_mail_off,
    test_settings_start_as_the_defaults_and_a_put_changes_only_what_it_sends,
)
