"""The text mode's words: the club told as lines for screen readers, braille displays and plain terminals.

No Textual and no asyncssh here (``net.modes.text`` is the channel side): the
sentences of events come from ``tui.narrate`` (the same narration as the
screen's log), the vocabulary from ``tui.commands`` (the same parser).  What is
new is only what a full screen shows without words: the hand, the trick, the
seats, whose turn it is and what may be done, said as sentences.
"""
