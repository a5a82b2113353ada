from test_shared import *  # noqa: F401,F403  (collects test_user_name here too, and the fixture)


def test_user_is_a_dict(user):
    assert isinstance(user, dict)
