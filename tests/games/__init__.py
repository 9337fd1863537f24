"""Games that live only in the tests: they prove that a game is a plug-in (an engine part and a
presentation part, registered from the tests) with no edit to the server, the workers, the
shared templates or engine/core."""
