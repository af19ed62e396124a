"""The e-mail and push senders on the cluster: the same tests as on one server
(tests/service/reach), on a database of the cluster (this directory's ``db_factory``): a turn
e-mailed and pushed, reminders, a digest, a crash between send and settle, the page presence
the streams record, and the whole way through the routes."""
from tests.service.reach.conftest import world  # noqa: F401 - the fixture, found by pytest by its name
from tests.service.reach.test_crash_and_wake import (  # noqa: F401 - the same tests, on the cluster
    test_a_sender_killed_after_the_send_sends_the_same_message_again_once,
)
from tests.service.reach.test_end_to_end import (  # noqa: F401
    site,
    test_a_players_turn_reaches_them_and_one_click_turns_that_email_off,
)
from tests.service.reach.test_mail_sender import (  # noqa: F401
    test_a_turn_is_emailed_at_once_with_text_html_and_a_link_to_the_game,
)
from tests.service.reach.test_page_presence import (  # noqa: F401
    served,
    test_a_turn_is_held_while_its_game_is_open_and_goes_when_the_page_closes,
)
from tests.service.reach.test_push_sender import (  # noqa: F401
    test_a_turn_is_pushed_encrypted_and_signed_with_the_games_topic,
)
from tests.service.reach.test_schedules import (  # noqa: F401
    test_reminders_go_at_each_lead_once_and_stop_when_the_player_moves,
    test_turns_join_one_digest_listing_every_waiting_game_most_urgent_first,
)
