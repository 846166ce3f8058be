"""The table shell behind `pan table`, one module a job: ``table_shell`` runs a line and holds the
session, ``line`` reads its words, ``board`` draws the prompt and the live board, ``help`` its
`help`, ``completion`` Tab, ``prompt`` the interactive prompt and its history, ``script`` a script
(its group commits), ``direct`` the plain-word fast path and ``bugs`` the bug log."""
