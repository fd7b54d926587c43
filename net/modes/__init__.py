"""What a session speaks: the hall, the welcome, the App, the watchers, the text mode, the bot protocol."""
