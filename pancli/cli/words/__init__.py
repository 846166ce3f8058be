"""The words of the command line and its help: which language it speaks (``language``), how a line's
words are read (``grammar``), help in the language in force (``help_language``, ``help_texts``,
``help_catalog``), the command-line library's own words (``framework``) and the hints' words
(``hints``)."""
