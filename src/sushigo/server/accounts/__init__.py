"""Player accounts: names, passwords (Argon2id), sessions, API tokens for programs, and who a request is.

Guests need none of this: every table still works with a seat token alone. An account adds an identity
that follows its seats across devices, a rating, a history, and tokens for programs that play as it.
"""
